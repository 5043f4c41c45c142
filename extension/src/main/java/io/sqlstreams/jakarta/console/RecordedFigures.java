package io.sqlstreams.jakarta.console;

import io.sqlstreams.Measurement;
import io.sqlstreams.MetricsHandle;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A group's figures that only the metrics collector knows, read from what it recorded: the oldest unresolved
 * message's age and the commit rate between its last two passes. Empty when it has not recorded them (yet).
 */
final class RecordedFigures {
    private static final String OLDEST_UNRESOLVED_AGE = "sqlstreams.consumer.exceptions.oldest_unresolved_age";
    private static final String COMMITTED = "sqlstreams.consumer.cursor.committed";

    private final MetricsHandle metrics;
    private final Map<String, String> group;

    RecordedFigures(MetricsHandle metrics, String stream, String group) {
        this.metrics = metrics;
        this.group = Map.of("stream", stream, "group", group);
    }

    /** The age of the oldest unresolved exception row, as last recorded (see {@link #millis}). */
    Optional<Measurement> oldestUnresolvedAge() {
        return metrics.metric(OLDEST_UNRESOLVED_AGE, group).latest();
    }

    /**
     * The recorded age in whole milliseconds: the gauge is in seconds ({@code s}), but a measurement retained from
     * a release that recorded it in milliseconds says {@code ms}.
     */
    static long millis(Measurement age) {
        return Math.round("ms".equals(age.unit()) ? age.value() : age.value() * 1000);
    }

    /** Messages committed per second between the collector's last two recordings of the committed cursor. */
    Optional<Double> commitRate() {
        List<Measurement> last = metrics.metric(COMMITTED, group).history(2);
        if (last.size() < 2) {
            return Optional.empty();
        }
        Duration between = Duration.between(last.get(1).at(), last.get(0).at());
        if (between.isZero() || between.isNegative()) {
            return Optional.empty();
        }
        return Optional.of((last.get(0).value() - last.get(1).value()) * 1000.0 / between.toMillis());
    }
}
