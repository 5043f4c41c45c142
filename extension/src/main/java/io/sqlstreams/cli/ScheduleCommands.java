package io.sqlstreams.cli;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

import io.sqlstreams.Code;
import io.sqlstreams.Concurrency;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Quoting;
import io.sqlstreams.Schedule;
import io.sqlstreams.ScheduleGroupStatus;
import io.sqlstreams.ScheduleRunOptions;
import io.sqlstreams.ScheduledMessage;
import io.sqlstreams.SchedulerHandle;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.WireNamed;
import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sqlstreams schedule …}: the schedules applications registered, how their messages fared, and the switches
 * an operator needs (suspend, run now, destroy). Schedules are declared in code, never here.
 */
@Command(name = "schedule", description = "Read the registered schedules and their messages; suspend, run or"
        + " destroy one.",
        subcommands = {ScheduleCommands.ListSchedules.class, ScheduleCommands.GetSchedule.class,
                ScheduleCommands.Status.class, ScheduleCommands.Messages.class, ScheduleCommands.Suspend.class,
                ScheduleCommands.Unsuspend.class, ScheduleCommands.Run.class, ScheduleCommands.Destroy.class})
final class ScheduleCommands {
    private ScheduleCommands() {
    }

    @Command(name = "list", description = "List the registered schedules, ordered by name.")
    static final class ListSchedules extends ListCommand<Schedule> {
        ListSchedules() {
            super(ScheduleFormats.SCHEDULE);
        }

        @Override
        List<Schedule> rows(Installation installation) {
            return installation.client().schedules();
        }
    }

    /** The {@code <schedule>} argument of the verbs about one schedule (a mixin). */
    static final class OneSchedule {
        @Parameters(index = "0", paramLabel = "<schedule>")
        private String name;

        String name() {
            return name;
        }

        /** {@code verb} applied to the schedule's handle, through the run's client. */
        <T> T apply(Installation installation, Function<SchedulerHandle, T> verb) {
            return verb.apply(installation.client().scheduler(name));
        }
    }

    /** {@code --limit N}: how many of the schedule's newest messages (a mixin). */
    static final class MessageLimit {
        static final String FLAG = "--limit";
        static final int DEFAULT = 20;

        @Option(names = FLAG, paramLabel = "N", defaultValue = "" + DEFAULT,
                description = "at most this many of its newest messages (default ${DEFAULT-VALUE})")
        private int limit;

        /** The limit; SQL0108 when it is below 1. */
        int checked() {
            FlagValues.positive(FLAG, limit);
            return limit;
        }
    }

    @Command(name = "get", description = "Show one schedule: its stream, expression, payload, declaration and due"
            + " times; with --messages also its newest messages and their outcome in each consumer group. Exit 1"
            + " when it is not registered.")
    static final class GetSchedule extends GetCommand<ScheduleFormats.Detail> {
        @Mixin
        private OneSchedule schedule;

        @Option(names = "--messages",
                description = "also list its newest messages, at most --limit (see 'schedule messages')")
        private boolean messages;

        @Mixin
        private MessageLimit limit;

        GetSchedule() {
            super(ScheduleFormats.DETAIL);
        }

        @Override
        Optional<ScheduleFormats.Detail> row(Installation installation) {
            if (!messages && spec().commandLine().getParseResult().hasMatchedOption(MessageLimit.FLAG)) {
                throw usageError(MessageLimit.FLAG + " needs --messages");
            }
            // the limit is checked first, so a bad one is a usage error even for an absent schedule
            int newest = messages ? limit.checked() : 0;
            return schedule.apply(installation, handle -> registered(handle).map(found -> new ScheduleFormats.Detail(
                    found, messages ? handle.messages(newest) : null)));
        }

        @Override
        void printText(Output output, ScheduleFormats.Detail detail) {
            output.table(ScheduleFormats.SCHEDULE.fields(detail.schedule()));
            if (detail.messages() != null) {
                output.line("");
                output.table(ScheduleFormats.MESSAGE.table(detail.messages()));
            }
        }

        @Override
        String absence() {
            return Code.SQL0013.id() + " schedule " + Quoting.quote(schedule.name()) + " is not registered";
        }

        /** The schedule, or empty when it is not registered (the handle's SQL0013). */
        private static Optional<Schedule> registered(SchedulerHandle handle) {
            try {
                return Optional.of(handle.get());
            } catch (SqlStreamsException failure) {
                if (failure.code() == Code.SQL0013) {
                    return Optional.empty();
                }
                throw failure;
            }
        }
    }

    /** A verb about one schedule that prints rows read through its handle. */
    abstract static class RowsVerb<R> extends InstallationCommand {
        @Mixin
        private OneSchedule schedule;

        private final RowFormat<R> format;

        RowsVerb(RowFormat<R> format) {
            this.format = format;
        }

        abstract List<R> read(SchedulerHandle handle);

        @Override
        int run(Output output, Installation installation) {
            output.rows(format, schedule.apply(installation, this::read));
            return ExitCodes.OK;
        }
    }

    @Command(name = "status", description = "For each consumer group of the schedule's stream, how many of its"
            + " messages ran, succeeded, failed and were superseded, as the delivery log records them (successes"
            + " only when the stream logs every delivery).")
    static final class Status extends RowsVerb<ScheduleGroupStatus> {
        Status() {
            super(ScheduleFormats.GROUP_STATUS);
        }

        @Override
        List<ScheduleGroupStatus> read(SchedulerHandle handle) {
            return handle.status();
        }
    }

    @Command(name = "messages", description = "List the schedule's newest messages still in its stream, newest"
            + " first, with their outcome in each consumer group and the message that came next.")
    static final class Messages extends RowsVerb<ScheduledMessage> {
        @Mixin
        private MessageLimit limit;

        Messages() {
            super(ScheduleFormats.MESSAGE);
        }

        @Override
        List<ScheduledMessage> read(SchedulerHandle handle) {
            return handle.messages(limit.checked());
        }
    }

    /** A switch on one schedule; prints the schedule as it stands afterwards, as {@code schedule get} does. */
    abstract static class Switch extends InstallationCommand {
        @Mixin
        private OneSchedule schedule;

        private final Consumer<SchedulerHandle> change;

        Switch(Consumer<SchedulerHandle> change) {
            this.change = change;
        }

        @Override
        int run(Output output, Installation installation) {
            Schedule after = schedule.apply(installation, handle -> {
                change.accept(handle);
                return handle.get();
            });
            output.object(ScheduleFormats.SCHEDULE.json().apply(after));
            return ExitCodes.OK;
        }
    }

    @Command(name = "suspend", description = "Stop the schedule producing messages; a message already produced"
            + " still runs.")
    static final class Suspend extends Switch {
        Suspend() {
            super(SchedulerHandle::suspend);
        }
    }

    @Command(name = "unsuspend", description = "Let the schedule produce again, from its first due time after now:"
            + " the times it missed while suspended are dropped.")
    static final class Unsuspend extends Switch {
        Unsuspend() {
            super(SchedulerHandle::unsuspend);
        }
    }

    @Command(name = "run", description = "Produce the schedule's payload now, outside its expression and even"
            + " while it is suspended; its due times do not move. Prints the message's id.")
    static final class Run extends InstallationCommand {
        @Mixin
        private OneSchedule schedule;

        @Option(names = "--concurrency", paramLabel = "<policy>", defaultValue = "parallel",
                description = "parallel (the default), or exclusive: the message waits for a run of the schedule"
                        + " still going")
        private String concurrency;

        @Override
        int run(Output output, Installation installation) {
            ScheduleRunOptions options = new ScheduleRunOptions(WireNamed.parse(Concurrency.class, "--concurrency",
                    concurrency));
            ProduceResult produced = schedule.apply(installation, handle -> handle.run(options));
            output.object(Json.createObjectBuilder()
                    .add("schedule", schedule.name())
                    .add("id", produced.id())
                    .add("duplicate", produced.duplicate())
                    .build());
            return ExitCodes.OK;
        }
    }

    @Command(name = "destroy", description = "Delete the schedule; the messages it produced stay in its stream."
            + " Asks for the schedule's name to be typed unless --yes, which a run without a terminal or with"
            + " --output json needs.")
    static final class Destroy extends DestroyCommand {
        @Mixin
        private OneSchedule schedule;

        @Override
        String question(SqlStreams client) {
            Schedule doomed = client.scheduler(schedule.name()).get();
            return "destroy schedule " + Quoting.quote(doomed.name()) + " (" + doomed.expression() + " on stream "
                    + Quoting.quote(doomed.stream()) + ")? Its messages stay.";
        }

        @Override
        String name() {
            return schedule.name();
        }

        @Override
        void destroy(SqlStreams client) {
            client.scheduler(schedule.name()).destroy();
        }

        @Override
        String describe() {
            return "schedule " + Quoting.quote(schedule.name());
        }

        @Override
        JsonObjectBuilder identity() {
            return Json.createObjectBuilder().add("schedule", schedule.name());
        }

        @Override
        String afterword() {
            return "; its messages stay in its stream";
        }
    }
}
