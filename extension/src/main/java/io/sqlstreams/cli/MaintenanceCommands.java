package io.sqlstreams.cli;

import java.util.function.Function;

import io.sqlstreams.MaintenanceHandle;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.WorkerSnapshot;
import io.sqlstreams.engine.codec.DurationText;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code stream janitor …} and {@code stream vacuum …}: a stream's maintenance worker, its status and the switch
 * that suspends or allows it. Every verb prints the worker as it stands afterwards.
 */
final class MaintenanceCommands {
    private MaintenanceCommands() {
    }

    /** Which of the stream's maintenance workers a verb acts on: the command above it. */
    interface MaintainedWorker {
        MaintenanceHandle of(StreamHandle<Object> stream);
    }

    @Command(name = "janitor", description = "Read or switch a stream's janitor worker (stream_janitor).",
            subcommands = {Status.class, Suspend.class, Unsuspend.class})
    static final class Janitor implements MaintainedWorker {
        @Override
        public MaintenanceHandle of(StreamHandle<Object> stream) {
            return stream.janitor();
        }
    }

    @Command(name = "vacuum", description = "Read or switch a stream's vacuum worker (stream_vacuum),"
            + " suspended on a new stream.", subcommands = {Status.class, Suspend.class, Unsuspend.class})
    static final class Vacuum implements MaintainedWorker {
        @Override
        public MaintenanceHandle of(StreamHandle<Object> stream) {
            return stream.vacuum();
        }
    }

    /** One verb on the worker of {@code <stream>}: what it does to the handle, then the snapshot printed. */
    abstract static class Verb extends InstallationCommand {
        @ParentCommand
        private MaintainedWorker worker;

        @Parameters(index = "0", paramLabel = "<stream>")
        private String stream;

        private final Function<MaintenanceHandle, WorkerSnapshot> action;

        Verb(Function<MaintenanceHandle, WorkerSnapshot> action) {
            this.action = action;
        }

        @Override
        int run(Output output, Installation installation) {
            JsonObject snapshot = json(stream, action.apply(worker.of(installation.client().stream(stream,
                    Object.class))));
            output.object(snapshot);
            return ExitCodes.OK;
        }
    }

    @Command(name = "status", description = "Show the worker's status (suspended, unclaimed, claimed or failing),"
            + " its target and live instances, its failure streak and how long it has been unclaimed.")
    static final class Status extends Verb {
        Status() {
            super(MaintenanceHandle::status);
        }
    }

    @Command(name = "suspend", description = "Suspend the worker (target 0). Running work is not waited for:"
            + " a live instance stops at its next heartbeat.")
    static final class Suspend extends Verb {
        Suspend() {
            super(MaintenanceHandle::suspend);
        }
    }

    @Command(name = "unsuspend", description = "Allow the worker one instance again (target 1); a running manager"
            + " claims it.")
    static final class Unsuspend extends Verb {
        Unsuspend() {
            super(MaintenanceHandle::unsuspend);
        }
    }

    /** The snapshot as the verbs print it: snake_case fields, {@code unclaimed_for} as a Go duration or null. */
    static JsonObject json(String stream, WorkerSnapshot snapshot) {
        JsonObjectBuilder fields = Json.createObjectBuilder()
                .add("stream", stream)
                .add("worker", snapshot.name())
                .add("status", snapshot.status().wireName())
                .add("target_instances", snapshot.targetInstances())
                .add("live_instances", snapshot.liveInstances())
                .add("attempts", snapshot.attempts());
        snapshot.unclaimedFor().ifPresentOrElse(unclaimed -> fields.add("unclaimed_for", DurationText.format(unclaimed)),
                () -> fields.addNull("unclaimed_for"));
        return fields.build();
    }
}
