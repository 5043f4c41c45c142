package io.sqlstreams.cli;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.Quoting;
import io.sqlstreams.Worker;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code consumer worker list <stream> <group> [key]}: the keys each of the group's workers has stored, as declared
 * (sparse: a key that is not there takes the library default), by worker and then key in alphabetical order.
 * Session options are never stored, so asking for one is a usage error that says so.
 */
@Command(name = "list", description = "List the config keys each of a consumer group's workers has stored,"
        + " or only the given key (such as message.timeout or exception_initial_backoff) or subtree (message.retry).")
final class WorkerListCommand extends InstallationCommand {
    private static final List<String> SESSION_OPTIONS = Arrays.stream(ConsumeOptions.class.getRecordComponents())
            .map(RecordComponent::getName).toList();

    @Mixin
    private GroupArguments names;

    @Parameters(index = "2", arity = "0..1", paramLabel = "[key]",
            description = "a stored key or subtree; kebab-case is read as snake_case")
    private String key;

    /** One stored value of one worker. */
    private record StoredKey(String worker, String key, JsonValue value) {
    }

    @Override
    int run(Output output, Installation installation) {
        String filter = key == null ? null : storedSpelling(key);
        List<StoredKey> keys = storedKeys(names.handle(installation.client()).workers(), filter);
        if (output.json()) {
            JsonArrayBuilder array = Json.createArrayBuilder();
            keys.forEach(stored -> array.add(Json.createObjectBuilder().add("worker", stored.worker())
                    .add("key", stored.key()).add("value", stored.value())));
            output.json(Json.createObjectBuilder().add("stream", names.stream()).add("consumer", names.group())
                    .add("keys", array).build());
        } else if (keys.isEmpty()) {
            output.line(filter == null ? "no stored keys: every value is the library default"
                    : "no worker stores " + Quoting.quote(filter) + ": it takes the library default");
        } else {
            TextTable table = TextTable.withHeaders("WORKER", "KEY", "VALUE");
            keys.forEach(stored -> table.row(stored.worker(), stored.key(), TextTable.cell(stored.value())));
            output.table(table);
        }
        return ExitCodes.OK;
    }

    /** Every worker's stored keys, or those {@code filter} selects when it is not null. */
    private static List<StoredKey> storedKeys(List<Worker> workers, String filter) {
        List<StoredKey> keys = new ArrayList<>();
        for (Worker worker : workers) {
            new TreeMap<>(StoredKeys.flatten(StoredKeys.parse(worker.metadata()))).forEach((stored, value) -> {
                if (filter == null || StoredKeys.selects(filter, stored)) {
                    keys.add(new StoredKey(worker.name(), stored, value));
                }
            });
        }
        return keys;
    }

    private String storedSpelling(String requested) {
        String spelling = requested.trim().replace('-', '_');
        String folded = fold(spelling);
        SESSION_OPTIONS.stream().filter(option -> fold(option).equals(folded)).findFirst().ifPresent(option -> {
            throw usageError(Quoting.quote(requested) + " is a session option (ConsumeOptions." + option
                    + "), passed to each consume session and never stored; stored keys look like message.timeout or"
                    + " exception_initial_backoff");
        });
        return spelling;
    }

    /** Spelling-blind form: {@code claimPollRate}, {@code claim_poll_rate} and {@code claim-poll-rate} fold alike. */
    private static String fold(String name) {
        return name.replace("_", "").toLowerCase(Locale.ROOT);
    }
}
