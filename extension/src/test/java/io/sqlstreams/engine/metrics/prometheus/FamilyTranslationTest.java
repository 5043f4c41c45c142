package io.sqlstreams.engine.metrics.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricKind;

/**
 * Family translation on measurements made by hand: retained data the producer's rules would not let through today
 * (attribute keys with dots, say) must still never be exported ambiguously.
 */
class FamilyTranslationTest {

    @Test
    void twoAttributeKeysThatBecomeOneLabelRejectTheirFamily() {
        FamilyTranslation.Result result = FamilyTranslation.translate(List.of(
                gauge("billing.depth", Map.of("queue.name", "invoices")),
                gauge("billing.depth", Map.of("queue_name", "refunds")),
                gauge("billing.load", Map.of("queue", "invoices"))));

        assertThat(result.families()).extracting(family -> family.getMetadata().getPrometheusName())
                .containsExactly("billing_load");
        assertThat(result.rejections()).containsExactly(new FamilyTranslation.Rejection("billing.depth",
                "its attribute keys queue.name, queue_name all translate to label queue_name", 2));
        assertThat(result.rejectedSeries()).isEqualTo(2);
    }

    @Test
    void aCounterAndAGaugeWhoseNamesDifferOnlyByTotalAreAmbiguous() {
        FamilyTranslation.Result result = FamilyTranslation.translate(List.of(
                new Measurement("billing.jobs", MetricKind.COUNTER, 3, "", Map.of(), null, null),
                gauge("billing.jobs_total", Map.of())));

        assertThat(result.families()).isEmpty();
        assertThat(result.rejections()).extracting(FamilyTranslation.Rejection::family)
                .containsExactly("billing.jobs", "billing.jobs_total");
    }

    @Test
    void durationsExportInSecondsAndOnlyTheyGetAUnitSuffix() {
        List<MetricSnapshot> families = FamilyTranslation.translate(List.of(
                new Measurement("billing.wait", MetricKind.GAUGE, 1500, "ms", Map.of("step", "1"), null, null),
                new Measurement("billing.wait", MetricKind.GAUGE, 2, "s", Map.of("step", "2"), null, null),
                new Measurement("billing.busy", MetricKind.COUNTER, 3, "s", Map.of(), null, null),
                new Measurement("billing.spin", MetricKind.COUNTER, 250, "ms", Map.of(), null, null),
                new Measurement("billing.depth", MetricKind.GAUGE, 1, "{job}", Map.of(), null, null))).families();

        assertThat(families).extracting(family -> family.getMetadata().getPrometheusName())
                .containsExactly("billing_wait_seconds", "billing_busy_seconds", "billing_spin_seconds",
                        "billing_depth");
        assertThat(families.get(0).getDataPoints()).extracting(point -> ((GaugeSnapshot.GaugeDataPointSnapshot) point)
                .getValue()).as("ms and s agree").containsExactly(1.5, 2.0);
        assertThat(((CounterSnapshot) families.get(2)).getDataPoints().get(0).getValue()).isEqualTo(0.25);
    }

    private static Measurement gauge(String name, Map<String, String> attributes) {
        return new Measurement(name, MetricKind.GAUGE, 1, "", attributes, null, null);
    }
}
