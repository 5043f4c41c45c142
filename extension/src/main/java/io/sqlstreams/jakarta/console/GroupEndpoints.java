package io.sqlstreams.jakarta.console;

import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.DeadLetter;
import io.sqlstreams.DeadLetterErrors;
import io.sqlstreams.DeadLetterFilter;
import io.sqlstreams.DeadLettersHandle;
import io.sqlstreams.OperatorAction;
import io.sqlstreams.PageRequest;
import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The endpoints of one consumer group, under {@code api/groups/<stream>/<group>/}. */
final class GroupEndpoints {
    private static final int BLOCKED_KEYS = 20;
    private static final int ACTIONS = 20;
    private static final int ERROR_GROUPS = 20;

    private final ConsumerHandle<Object> group;
    private final ConsoleRequest call;
    private final DeadLetterParameters parameters;

    GroupEndpoints(ConsumerHandle<Object> group, ConsoleRequest call) {
        this.group = group;
        this.call = call;
        this.parameters = new DeadLetterParameters(call.http());
    }

    /** The answer for {@code route}, the path below the group ({@code ""}, {@code dead/count}, …). */
    JsonValue answer(String route) {
        DeadLettersHandle dead = group.deadLetters();
        return switch (route) {
            case "" -> call.read(() -> ConsoleJson.groupDetail(group.inspect(), group.blockedKeys(BLOCKED_KEYS),
                    group.actions(ACTIONS), group.fence()));
            case "dead" -> call.read(() -> ConsoleJson.page(dead.list(parameters.filter(), parameters.page())));
            case "dead/count" -> call.read(() -> ConsoleJson.count(dead.count(parameters.filter())));
            case "dead/errors" -> call.read(() -> errorGroups(dead));
            case "dead/redrive" -> call.change(() -> settle(dead, dead::redrive));
            case "dead/discard" -> call.change(() -> settle(dead, dead::discard));
            case "pause" -> call.change(() -> switched(group.pause(call.actor())));
            case "resume" -> call.change(() -> switched(group.resume(call.actor())));
            default -> throw ConsoleFailure.notFound("no group endpoint " + route);
        };
    }

    /** The dead letters grouped by error, each with its sample message's payload, read in one more page. */
    private JsonValue errorGroups(DeadLettersHandle dead) {
        List<DeadLetterErrors> errors = dead.errors(parameters.filter(), parameters.limit(ERROR_GROUPS));
        Set<Long> samples = errors.stream().map(DeadLetterErrors::sampleMessageId).collect(Collectors.toSet());
        Map<Long, DeadLetter> letters = samples.isEmpty() ? Map.of()
                : dead.list(DeadLetterFilter.all().ids(samples), new PageRequest(samples.size(), null)).letters()
                        .stream().collect(Collectors.toMap(DeadLetter::messageId, Function.identity()));
        return ConsoleJson.errors(errors, letters);
    }

    /** Redrives or discards the selection, or with {@code dry_run=true} only counts it. */
    private JsonValue settle(DeadLettersHandle dead, BiFunction<DeadLetterFilter, String, OperatorAction> verb) {
        DeadLetterFilter filter = parameters.filter();
        JsonObjectBuilder answer = Json.createObjectBuilder().add("dry_run", parameters.dryRun());
        if (parameters.dryRun()) {
            return answer.add("count", dead.count(filter)).build();
        }
        OperatorAction action = verb.apply(filter, call.actor());
        return answer.add("count", action.affected()).add("action", ConsoleJson.action(action)).build();
    }

    /** A pause or resume: the action recorded, or null (unchanged) when the group already was so. */
    private static JsonValue switched(Optional<OperatorAction> action) {
        return Json.createObjectBuilder().add("changed", action.isPresent())
                .add("action", ConsoleJson.action(action.orElse(null))).build();
    }
}
