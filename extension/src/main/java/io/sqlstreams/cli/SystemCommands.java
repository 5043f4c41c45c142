package io.sqlstreams.cli;

import java.time.Duration;

import io.sqlstreams.DestroyOptions;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.SystemConfig;
import io.sqlstreams.SystemHandle;
import io.sqlstreams.SystemState;
import io.sqlstreams.engine.codec.DurationText;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sqlstreams system …}: the installation itself. */
@Command(name = "system", description = "Register, read or destroy the installation itself.",
        subcommands = {SystemCommands.Register.class, SystemCommands.Get.class, SystemCommands.Destroy.class})
final class SystemCommands {
    private SystemCommands() {
    }

    /** A verb that prints the installation as it stands after {@link #apply}. */
    abstract static class StateVerb extends InstallationCommand {
        abstract SystemState apply(SystemHandle system);

        @Override
        int run(Output output, Installation installation) {
            JsonObject fields;
            try (SqlStreams client = installation.client()) {
                fields = json(apply(client.system()));
            }
            if (output.json()) {
                output.json(fields);
            } else {
                output.table(TextTable.fields(fields));
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "register", description = "Create the installation when missing and declare the system's"
            + " workers; a differing declaration replaces the stored one and keeps a suspension. Prints the"
            + " installation as 'system get' does.")
    static final class Register extends StateVerb {
        @Option(names = "--manager-poll-rate", paramLabel = "<duration>",
                description = "how often the manager reconciles the installation's workers (default 30s)")
        private String managerPollRate;

        @Override
        SystemState apply(SystemHandle system) {
            Duration pollRate = managerPollRate == null ? null
                    : DurationText.parse("--manager-poll-rate", managerPollRate);
            system.register(new SystemConfig(pollRate));
            return system.get();
        }
    }

    @Command(name = "get", description = "Show the installation: its system id, DDL version, the manager's poll"
            + " rate, when it was created, how many streams it holds and how many worker instances are live."
            + " Exit 1 when the schema holds none (SQL0017).")
    static final class Get extends StateVerb {
        @Override
        SystemState apply(SystemHandle system) {
            return system.get();
        }
    }

    @Command(name = "destroy", description = "Drop every stream's tables and the installation's shared tables,"
            + " then the schema when nothing else is left in it. Refused while a worker instance is live (SQL0010)"
            + " or a stream is registered (SQL0011) unless --force.")
    static final class Destroy extends InstallationCommand {
        @Option(names = "--force", description = "destroy even with live worker instances and registered streams")
        private boolean force;

        @Override
        int run(Output output, Installation installation) {
            try (SqlStreams client = installation.client()) {
                client.system().destroy(force ? DestroyOptions.forced() : DestroyOptions.guarded());
            }
            if (output.json()) {
                output.json(Json.createObjectBuilder().add("schema", installation.schema()).add("destroyed", true)
                        .build());
            } else {
                output.line("destroyed the installation in schema " + installation.schema());
            }
            return ExitCodes.OK;
        }
    }

    static JsonObject json(SystemState state) {
        return Json.createObjectBuilder()
                .add("system_id", state.systemId())
                .add("schema", state.schema())
                .add("version", state.version())
                .add("min_compatible_version", state.minCompatibleVersion())
                .add("manager_poll_rate", DurationText.format(state.config().resolvedManagerPollRate()))
                .add("created_at", state.createdAt().toString())
                .add("streams", state.streams())
                .add("live_instances", state.liveInstances())
                .build();
    }
}
