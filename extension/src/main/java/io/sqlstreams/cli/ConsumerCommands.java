package io.sqlstreams.cli;

import java.util.List;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.Consumer;
import io.sqlstreams.Quoting;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code sqlstreams consumer …}: a stream's consumer groups, their stored workers and their state, and the operator
 * verbs on a group: its dead letters, pause and resume, its blocked keys and its audit trail.
 */
@Command(name = "consumer", description = "Read consumer groups: registrations, stored config, state, bindings;"
        + " redrive or discard their dead letters, pause and resume them, destroy them.",
        subcommands = {ConsumerCommands.ListConsumers.class, ConsumerCommands.GetConsumer.class,
                ConsumerCommands.Workers.class, InspectCommand.class, DeadLetterCommands.class,
                GroupControlCommands.Pause.class, GroupControlCommands.Resume.class,
                GroupControlCommands.Blocked.class, GroupControlCommands.Actions.class, BindingCommands.class,
                ConsumerDestroyCommand.class})
final class ConsumerCommands {
    private ConsumerCommands() {
    }

    @Command(name = "list", description = "List the consumer groups registered on a stream, ordered by name.")
    static final class ListConsumers extends ListCommand<Consumer> {
        @Parameters(index = "0", paramLabel = "<stream>")
        private String stream;

        ListConsumers() {
            super(RowFormat.CONSUMER);
        }

        @Override
        List<Consumer> rows(Installation installation) {
            return installation.client().stream(stream, Object.class).consumers();
        }
    }

    @Command(name = "get", description = "Show one consumer group's row (its registration, not its liveness).")
    static final class GetConsumer extends GetCommand<Consumer> {
        @Mixin
        private GroupArguments names;

        GetConsumer() {
            super(RowFormat.CONSUMER);
        }

        @Override
        Optional<Consumer> row(Installation installation) {
            names.checkNames();
            return names.handle(installation.client()).get();
        }

        @Override
        String absence() {
            return Code.SQL0014.id() + " consumer group " + Quoting.quote(names.group())
                    + " is not registered on stream " + Quoting.quote(names.stream());
        }
    }

    @Command(name = "worker", description = "Read a consumer group's workers.", subcommands = WorkerListCommand.class)
    static final class Workers {
    }
}
