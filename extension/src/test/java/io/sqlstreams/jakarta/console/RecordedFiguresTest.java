package io.sqlstreams.jakarta.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sqlstreams.Measurement;
import io.sqlstreams.MetricKind;

/** The console's oldest-unresolved age is in ms whichever unit the retained measurement was recorded in. */
class RecordedFiguresTest {

    @Test
    void anAgeInSecondsAndOneRetainedFromWhenItWasRecordedInMillisecondsBothReadInMilliseconds() {
        assertThat(RecordedFigures.millis(age(7.25, "s"))).isEqualTo(7250);
        assertThat(RecordedFigures.millis(age(7250, "ms"))).isEqualTo(7250);
    }

    private static Measurement age(double value, String unit) {
        return new Measurement("sqlstreams.consumer.exceptions.oldest_unresolved_age", MetricKind.GAUGE, value, unit,
                Map.of("stream", "orders.placed", "group", "audit"), null, null);
    }
}
