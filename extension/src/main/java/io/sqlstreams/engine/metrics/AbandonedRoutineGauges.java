package io.sqlstreams.engine.metrics;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.sqlstreams.Code;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricFilter;

/**
 * The group gauges SQL0091–SQL0093, summed from the newest measurement of every session series of
 * {@code sqlstreams.consumer.session.abandoned} (one per group, payload version and host): abandoned in all is the
 * sum of the counters, outstanding and the self-clear average come from their {@link AbandonedRoutineDetail}.
 */
public final class AbandonedRoutineGauges {
    /** One group's figures; all zero for a group none of whose sessions ever abandoned a routine. */
    public record Figures(long outstanding, long total, double selfClearLatencyAvgMillis) {
        static final Figures NONE = new Figures(0, 0, 0);
    }

    private record GroupKey(String stream, String group) {
    }

    /** Every session series of the abandoned-routine counter (SQL0050). */
    public static final MetricFilter SESSION_SERIES = MetricFilter.all().origin(MetricFilter.Origin.BUILT_IN)
            .named(BuiltInMetrics.of(Code.SQL0050).name());

    private final Map<GroupKey, Figures> byGroup;

    private AbandonedRoutineGauges(Map<GroupKey, Figures> byGroup) {
        this.byGroup = byGroup;
    }

    /** Sums the session heads as of {@code now}. */
    public static AbandonedRoutineGauges of(List<Measurement> sessionHeads, Instant now) {
        Map<GroupKey, long[]> sums = new HashMap<>();
        for (Measurement head : sessionHeads) {
            GroupKey key = new GroupKey(head.attributes().get("stream"), head.attributes().get("group"));
            AbandonedRoutineDetail detail = AbandonedRoutineDetail.parse(head.metadata());
            long[] sum = sums.computeIfAbsent(key, ignored -> new long[4]);
            sum[0] += detail.outstandingAt(now);
            sum[1] += Math.round(head.value());
            sum[2] += detail.cleared();
            sum[3] += detail.clearMillis();
        }
        Map<GroupKey, Figures> figures = new HashMap<>();
        sums.forEach((key, sum) -> figures.put(key,
                new Figures(sum[0], sum[1], sum[2] == 0 ? 0 : (double) sum[3] / sum[2])));
        return new AbandonedRoutineGauges(figures);
    }

    public Figures of(String stream, String group) {
        return byGroup.getOrDefault(new GroupKey(stream, group), Figures.NONE);
    }
}
