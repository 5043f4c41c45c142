package io.sqlstreams.cli;

import java.util.function.Function;

import io.sqlstreams.AlertsHandle;
import io.sqlstreams.Quoting;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.StreamHandle;
import picocli.CommandLine.Option;

/** {@code [--stream <stream> [--consumer <group>]]}: whose alerts, the system's when neither is given (a mixin). */
class AlertOwnerOptions {
    @Option(names = "--stream", paramLabel = "<stream>", description = "a stream's alerts instead of the system's")
    private String stream;

    @Option(names = "--consumer", paramLabel = "<group>",
            description = "the alerts of this consumer group of the --stream")
    private String consumer;

    /**
     * {@code verb} applied to the owner's alerts through the run's client; first a usage error of
     * {@code command} for {@code --consumer} without {@code --stream}.
     */
    <T> T read(InstallationCommand command, Installation installation, Function<AlertsHandle, T> verb) {
        if (consumer != null && stream == null) {
            throw command.usageError("--consumer needs --stream");
        }
        return verb.apply(alerts(installation.client()));
    }

    private AlertsHandle alerts(SqlStreams client) {
        if (stream == null) {
            return client.system().alerts();
        }
        StreamHandle<Object> handle = client.stream(stream, Object.class);
        return consumer == null ? handle.alerts() : handle.consumer(consumer).alerts();
    }

    /** The owner as an error line names it. */
    String describe() {
        if (stream == null) {
            return "the system";
        }
        return consumer == null ? "stream " + Quoting.quote(stream)
                : "consumer group " + Quoting.quote(consumer) + " on stream " + Quoting.quote(stream);
    }
}
