package io.sqlstreams.cli;

import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;

import io.sqlstreams.BlockedKey;
import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.OperatorAction;
import jakarta.json.Json;
import jakarta.json.JsonValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code consumer pause|resume|blocked|actions <stream> <group>}: an operator's switch on a consumer group, and
 * what it reads about the group's waiting ordered keys and the actions operators took on it.
 */
final class GroupControlCommands {
    private GroupControlCommands() {
    }

    /** Pause or resume: prints the recorded action, or that the group already was in that state. */
    abstract static class Switch extends InstallationCommand {
        @Mixin
        private GroupArguments names;

        @Mixin
        private ActorOption actor;

        private final boolean pausing;
        private final BiFunction<ConsumerHandle<Object>, String, Optional<OperatorAction>> change;

        Switch(boolean pausing, BiFunction<ConsumerHandle<Object>, String, Optional<OperatorAction>> change) {
            this.pausing = pausing;
            this.change = change;
        }

        @Override
        int run(Output output, Installation installation) {
            Optional<OperatorAction> recorded = names.apply(installation, group -> change.apply(group, actor.name()));
            if (output.json()) {
                output.json(Json.createObjectBuilder()
                        .add("changed", recorded.isPresent())
                        .add("paused", pausing)
                        .add("action", recorded.<JsonValue>map(OperatorFormats.ACTION.json()).orElse(JsonValue.NULL))
                        .build());
            } else if (recorded.isPresent()) {
                output.row(OperatorFormats.ACTION, recorded.get());
            } else {
                output.line(names.describe() + (pausing ? " was already paused" : " was not paused")
                        + ": nothing recorded");
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "pause", description = "Pause the consumer group: its instances stop claiming within their"
            + " ConfigRefreshInterval, finish what they hold and stay live, until 'consumer resume'. Prints the"
            + " recorded action; a group already paused is left as it is (exit 0).")
    static final class Pause extends Switch {
        Pause() {
            super(true, ConsumerHandle::pause);
        }
    }

    @Command(name = "resume", description = "Resume a paused consumer group: its instances claim again within their"
            + " ConfigRefreshInterval. Prints the recorded action; a group that is not paused is left as it is"
            + " (exit 0).")
    static final class Resume extends Switch {
        Resume() {
            super(false, ConsumerHandle::resume);
        }
    }

    /** A listing about one group, at most {@code --limit} rows. */
    abstract static class Listing<R> extends InstallationCommand {
        @Mixin
        private GroupArguments names;

        @Mixin
        private ListingLimit limit;

        private final RowFormat<R> format;
        private final BiFunction<ConsumerHandle<Object>, Integer, List<R>> read;

        Listing(RowFormat<R> format, BiFunction<ConsumerHandle<Object>, Integer, List<R>> read) {
            this.format = format;
            this.read = read;
        }

        @Override
        int run(Output output, Installation installation) {
            output.rows(format, names.apply(installation, group -> read.apply(group, limit.value())));
            return ExitCodes.OK;
        }
    }

    @Command(name = "blocked", description = "List the group's ordered message keys whose later messages wait"
            + " behind an unresolved earlier one (retrying, in flight or deferred), the earliest blocking message"
            + " first.")
    static final class Blocked extends Listing<BlockedKey> {
        Blocked() {
            super(OperatorFormats.BLOCKED_KEY, ConsumerHandle::blockedKeys);
        }
    }

    @Command(name = "actions", description = "List the operator actions on the group (redrive, discard, pause,"
            + " resume), newest first.")
    static final class Actions extends Listing<OperatorAction> {
        Actions() {
            super(OperatorFormats.ACTION, ConsumerHandle::actions);
        }
    }
}
