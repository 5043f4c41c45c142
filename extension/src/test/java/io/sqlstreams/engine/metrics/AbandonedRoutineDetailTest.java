package io.sqlstreams.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sqlstreams.Measurement;
import io.sqlstreams.MetricKind;

/** The abandoned-routine detail a session series carries, and the group gauges summed from such series. */
class AbandonedRoutineDetailTest {
    private static final Instant T0 = Instant.parse("2026-12-03T10:00:00Z");

    @Test
    void aMergeSumsTheClearedRoutinesAndReplacesTheSessionsOutstandingEntry() {
        AbandonedRoutineDetail held = AbandonedRoutineDetail.delta(1, 400, "a", 2, T0)
                .plus(AbandonedRoutineDetail.delta(0, 0, "b", 1, T0), T0);

        AbandonedRoutineDetail merged = held.plus(AbandonedRoutineDetail.delta(2, 100, "a", 0, T0.plusSeconds(30)),
                T0.plusSeconds(30));

        assertThat(merged.cleared()).isEqualTo(3);
        assertThat(merged.clearMillis()).isEqualTo(500);
        assertThat(merged.outstanding()).as("a has none left; b's entry stays").containsOnlyKeys("b");
        assertThat(merged.outstandingAt(T0.plusSeconds(30))).isOne();
    }

    @Test
    void outstandingRoutinesOfASessionThatStoppedFlushingStopCountingAndAreDroppedAtTheNextMerge() {
        AbandonedRoutineDetail held = AbandonedRoutineDetail.delta(0, 0, "gone", 4, T0);
        Instant stale = T0.plus(AbandonedRoutineDetail.STALE_AFTER).plusMillis(1);

        assertThat(held.outstandingAt(T0.plus(AbandonedRoutineDetail.STALE_AFTER))).isEqualTo(4);
        assertThat(held.outstandingAt(stale)).isZero();
        assertThat(held.plus(AbandonedRoutineDetail.delta(0, 0, "live", 1, stale), stale).outstanding())
                .containsOnlyKeys("live");
    }

    @Test
    void theMetadataReadsBackAsWrittenAndUnreadableMetadataReadsAsNone() {
        AbandonedRoutineDetail detail = AbandonedRoutineDetail.delta(5, 1234, "0191-session", 3, T0);

        assertThat(AbandonedRoutineDetail.parse(detail.toMetadata())).isEqualTo(detail);
        assertThat(detail.toMetadata()).isEqualTo("{\"cleared\":5,\"clear_latency_ms\":1234,"
                + "\"outstanding\":{\"0191-session\":{\"count\":3,\"at\":\"2026-12-03T10:00:00Z\"}}}");
        for (String unreadable : new String[] {null, "", "{}", "[1]", "{\"outstanding\":{\"x\":{\"count\":1}}}",
                "{\"outstanding\":{\"x\":{\"count\":1,\"at\":\"yesterday\"}}}"}) {
            AbandonedRoutineDetail none = AbandonedRoutineDetail.parse(unreadable);
            assertThat(none.cleared()).as(unreadable).isZero();
            assertThat(none.outstanding()).as(unreadable).isEmpty();
        }
    }

    @Test
    void theGroupGaugesSumEverySessionSeriesOfTheGroupAndNoOther() {
        Instant now = T0.plusSeconds(10);
        List<Measurement> heads = List.of(
                head("orders", "billing", "host-a", 3, AbandonedRoutineDetail.delta(2, 300, "s1", 1, T0)),
                head("orders", "billing", "host-b", 2, AbandonedRoutineDetail.delta(1, 900, "s2", 1, T0)),
                head("orders", "billing", "host-c", 1, AbandonedRoutineDetail.delta(0, 0, "s3", 5,
                        T0.minus(Duration.ofMinutes(5)))),
                head("orders", "audit", "host-a", 7, AbandonedRoutineDetail.delta(0, 0, "s4", 0, T0)));

        AbandonedRoutineGauges gauges = AbandonedRoutineGauges.of(heads, now);

        assertThat(gauges.of("orders", "billing")).as("host-c's outstanding routines are stale")
                .isEqualTo(new AbandonedRoutineGauges.Figures(2, 6, 400.0));
        assertThat(gauges.of("orders", "audit")).isEqualTo(new AbandonedRoutineGauges.Figures(0, 7, 0.0));
        assertThat(gauges.of("orders", "never")).isEqualTo(new AbandonedRoutineGauges.Figures(0, 0, 0.0));
    }

    private static Measurement head(String stream, String group, String host, double total,
                                    AbandonedRoutineDetail detail) {
        return new Measurement("sqlstreams.consumer.session.abandoned", MetricKind.COUNTER, total, "{routine}",
                Map.of("stream", stream, "group", group, "version", "1", "session", host), T0, detail.toMetadata());
    }
}
