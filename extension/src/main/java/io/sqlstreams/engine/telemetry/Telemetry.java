package io.sqlstreams.engine.telemetry;

import java.util.Map;

import io.sqlstreams.ClientConfig;

/**
 * What the engine tells OpenTelemetry about sends and handler runs. {@link #OFF} when the client was given no
 * OpenTelemetry: every call then returns a shared do-nothing trace, so the hot paths allocate nothing for it.
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
    };

    /** The telemetry of a client: OpenTelemetry when its configuration carries an instance, else {@link #OFF}. */
    static Telemetry of(ClientConfig config) {
        return config.openTelemetry() == null ? OFF : OpenTelemetryTelemetry.of(config.openTelemetry());
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
}
