package io.sqlstreams.cli;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.sqlstreams.CollectorProgressAlertConfig;
import io.sqlstreams.DestroyOptions;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.SystemConfig;
import io.sqlstreams.SystemHandle;
import io.sqlstreams.SystemState;
import io.sqlstreams.engine.codec.DurationText;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
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
            SqlStreams client = installation.client();
            fields = json(apply(client.system()));
            if (output.json()) {
                output.json(fields);
            } else {
                output.table(TextTable.fields(flattened(fields)));
            }
            return ExitCodes.OK;
        }

        /** Nested policies as dotted fields: {@code alerts.partition_count.schedule}. */
        private static JsonObject flattened(JsonObject fields) {
            JsonObjectBuilder flat = Json.createObjectBuilder();
            for (Map.Entry<String, JsonValue> field : StoredKeys.flatten(fields).entrySet()) {
                flat.add(field.getKey(), field.getValue());
            }
            return flat.build();
        }
    }

    @Command(name = "register", modelTransformer = Register.StreamAlertOptions.class,
            description = "Create the installation when missing and declare the system's workers and alert"
                    + " policies; a differing declaration replaces the stored one and keeps a suspension. Every"
                    + " flag left out declares its default. Prints the installation as 'system get' does.")
    static final class Register extends StateVerb {
        private static final List<StreamAlertFlags> STREAM_ALERTS = List.of(StreamAlertFlags.PARTITION_COUNT,
                StreamAlertFlags.COMPACTION_READ_COST, StreamAlertFlags.WORKER_LIVENESS, StreamAlertFlags.FENCE_HELD);

        @Option(names = "--manager-poll-rate", paramLabel = "<duration>",
                description = "how often the manager reconciles the installation's workers (default 30s)")
        private String managerPollRate;

        @Option(names = "--metric-collector-poll-rate", paramLabel = "<duration>",
                description = "how often the metrics collector records the built-in metrics (default 30s)")
        private String metricCollectorPollRate;

        @Option(names = "--collector-progress-schedule", paramLabel = "<schedule>",
                description = "how often the metrics_collector_progress (SQL0101) check runs: @every <duration>"
                        + " (default @every 1m)")
        private String collectorProgressSchedule;

        @Option(names = "--collector-progress-maximum-age", paramLabel = "<duration>",
                description = "how old the collector's last pass may be while a manager is live (default the"
                        + " larger of 2m and three collector poll rates)")
        private String collectorProgressMaximumAge;

        @Option(names = "--collector-progress-pending", paramLabel = "<duration>",
                description = "how long the collector must be late before metrics_collector_progress is active"
                        + " (default 2m)")
        private String collectorProgressPending;

        @Option(names = "--collector-progress-disable-pending",
                description = "a late collector makes metrics_collector_progress active at once")
        private boolean collectorProgressDisablePending;

        @Override
        SystemState apply(SystemHandle system) {
            CommandSpec command = spec();
            CollectorProgressAlertConfig collectorProgress = new CollectorProgressAlertConfig(
                    collectorProgressSchedule,
                    FlagValues.duration("--collector-progress-maximum-age", collectorProgressMaximumAge),
                    FlagValues.duration("--collector-progress-pending", collectorProgressPending),
                    collectorProgressDisablePending);
            system.register(new SystemConfig(FlagValues.duration("--manager-poll-rate", managerPollRate),
                    FlagValues.duration("--metric-collector-poll-rate", metricCollectorPollRate))
                    .withAlerts(StreamAlertFlags.PARTITION_COUNT.read(command),
                            StreamAlertFlags.COMPACTION_READ_COST.read(command),
                            StreamAlertFlags.WORKER_LIVENESS.read(command), collectorProgress)
                    .withFenceHeldAlert(StreamAlertFlags.FENCE_HELD.read(command)));
            return system.get();
        }

        /** Adds the flags of each stream alert's policy ({@link StreamAlertFlags}). */
        static final class StreamAlertOptions implements IModelTransformer {
            @Override
            public CommandSpec transform(CommandSpec command) {
                STREAM_ALERTS.forEach(flags -> flags.addTo(command));
                return command;
            }
        }
    }

    @Command(name = "get", description = "Show the installation: its system id, DDL version, the manager's and"
            + " the metrics collector's poll rates, when it was created, how many streams it holds, how many worker"
            + " instances are live, and the alert policies. Exit 1 when the schema holds none (SQL0017).")
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
            SqlStreams client = installation.client();
            client.system().destroy(force ? DestroyOptions.forced() : DestroyOptions.guarded());
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
                .add("metric_collector_poll_rate",
                        DurationText.format(state.config().resolvedMetricCollectorPollRate()))
                .add("created_at", state.createdAt().toString())
                .add("streams", state.streams())
                .add("live_instances", state.liveInstances())
                .add("alerts", AlertPolicyFormat.json(state.config()))
                .build();
    }
}
