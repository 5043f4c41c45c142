package io.sqlstreams.engine.telemetry;

import java.util.Map;

/** Metrics without traces: the host records the messaging metrics, and no OpenTelemetry traces. */
final class MeteredTelemetry implements Telemetry {
    private final MessagingMeters meters;

    MeteredTelemetry(MessagingMeters meters) {
        this.meters = meters;
    }

    @Override
    public SendTrace send(String stream, int messages) {
        return Telemetry.reported(stream) ? new CountedSend(meters, stream) : SendTrace.NONE;
    }

    @Override
    public ProcessTrace process(String stream, String group, long messageId, int attempt,
                                Map<String, String> headers) {
        return Telemetry.reported(stream) ? new MeteredProcess(meters, stream, group) : ProcessTrace.NONE;
    }
}
