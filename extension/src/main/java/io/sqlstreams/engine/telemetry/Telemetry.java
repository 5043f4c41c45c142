package io.sqlstreams.engine.telemetry;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricDefinition;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.Names;

/**
 * What the engine tells OpenTelemetry and the host's metrics about sends and handler runs. {@link #OFF} when the
 * client has neither: every call then returns a shared do-nothing trace, so the hot paths allocate nothing for it.
 * The library's own {@code __system.*} streams are never reported.
 */
public interface Telemetry {
    Telemetry OFF = new Telemetry() {
        @Override
        public SendTrace send(String stream, int messages) {
            return SendTrace.NONE;
        }

        @Override
        public ProcessTrace process(String stream, String group, long messageId, int attempt,
                                    Map<String, String> headers) {
            return ProcessTrace.NONE;
        }

        @Override
        public GroupObservation observe(String stream, String group, List<MetricDefinition> gauges,
                                    Supplier<List<Measurement>> read) {
            return GroupObservation.NONE;
        }
    };

    /**
     * The telemetry of a client: traced through the configuration's OpenTelemetry when it carries one, measured by
     * {@code hostMeters} when the host has them, else by that OpenTelemetry's meter; a failure of either is logged
     * through {@code diagnostics} (SQL0154) and changes nothing else.
     */
    static Telemetry of(ClientConfig config, MessagingMeters hostMeters, Diagnostics diagnostics) {
        if (config.openTelemetry() != null) {
            return new GuardedTelemetry(OpenTelemetryTelemetry.of(config.openTelemetry(), hostMeters, diagnostics),
                    diagnostics);
        }
        return hostMeters == MessagingMeters.NONE ? OFF
                : new GuardedTelemetry(new MeteredTelemetry(hostMeters, diagnostics), diagnostics);
    }

    /** Whether {@code stream} is reported: every stream but the library's own. */
    static boolean reported(String stream) {
        return !stream.startsWith(Names.SYSTEM_PREFIX);
    }

    /** A produce call of {@code messages} messages to {@code stream} begins on the calling thread. */
    SendTrace send(String stream, int messages);

    /**
     * A handler run begins on the handler's thread.
     *
     * @param attempt which run of the delivery this is, starting at 1
     * @param headers the message's headers, where the producer's trace context travels
     */
    ProcessTrace process(String stream, String group, long messageId, int attempt, Map<String, String> headers);

    /**
     * A session of {@code group} starts: the group's {@code gauges}, all read together through {@code read}, are
     * reported until the returned observation closes (or, while another session of the group runs here, until
     * that one's).
     */
    GroupObservation observe(String stream, String group, List<MetricDefinition> gauges,
                             Supplier<List<Measurement>> read);
}
