package io.sqlstreams.engine.telemetry;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.sqlstreams.Measurement;
import io.sqlstreams.MetricDefinition;
import io.sqlstreams.engine.Diagnostics;

/** Metrics without traces: the host records the messaging metrics, and no OpenTelemetry traces. */
final class MeteredTelemetry implements Telemetry {
    private final MessagingMeters meters;
    private final ObservedGroups observed;

    MeteredTelemetry(MessagingMeters meters, Diagnostics diagnostics) {
        this.meters = meters;
        this.observed = new ObservedGroups(meters, diagnostics);
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

    @Override
    public GroupObservation observe(String stream, String group, List<MetricDefinition> gauges,
                                    Supplier<List<Measurement>> read) {
        return Telemetry.reported(stream) ? observed.observe(stream, group, gauges, read) : GroupObservation.NONE;
    }
}
