package io.sqlstreams.engine.metrics;

import static io.sqlstreams.MetricKind.COUNTER;
import static io.sqlstreams.MetricKind.GAUGE;
import static io.sqlstreams.MetricScope.CONSUMER_GROUP;
import static io.sqlstreams.MetricScope.CONSUMER_SESSION;
import static io.sqlstreams.MetricScope.EXPORTER;
import static io.sqlstreams.MetricScope.STREAM;
import static io.sqlstreams.MetricScope.SYSTEM;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.MetricDefinition;
import io.sqlstreams.MetricKind;
import io.sqlstreams.MetricScope;

/**
 * The built-in metric catalogue (digest §7.5): every metric the library records, with its code, kind, unit and
 * scope. Its name and description are its code's title and meaning.
 */
public final class BuiltInMetrics {
    /** The prefix of every built-in name; user measurements may not use it. */
    public static final String RESERVED_PREFIX = "sqlstreams.";

    private static final List<MetricDefinition> ALL = catalogue();

    private BuiltInMetrics() {
    }

    /** Every built-in metric, in code order. */
    public static List<MetricDefinition> all() {
        return ALL;
    }

    /** The built-in metric called {@code name}, if there is one. */
    public static Optional<MetricDefinition> named(String name) {
        return ALL.stream().filter(definition -> definition.name().equals(name)).findFirst();
    }

    /** The built-in metric of {@code code}, which must be one. */
    public static MetricDefinition of(Code code) {
        return ALL.stream().filter(definition -> definition.code() == code).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(code + " is no built-in metric"));
    }

    /** The built-in metrics whose series describe {@code scope}. */
    public static List<MetricDefinition> ofScope(MetricScope scope) {
        return ALL.stream().filter(definition -> definition.scope() == scope).toList();
    }

    private static List<MetricDefinition> catalogue() {
        List<MetricDefinition> all = new ArrayList<>();
        for (Code code : List.of(Code.SQL0042, Code.SQL0043, Code.SQL0044, Code.SQL0045, Code.SQL0046, Code.SQL0047)) {
            all.add(define(code, COUNTER, "{message}", CONSUMER_SESSION));
        }
        all.add(define(Code.SQL0048, COUNTER, "{lease}", CONSUMER_SESSION));
        all.add(define(Code.SQL0049, COUNTER, "{range}", CONSUMER_SESSION));
        all.add(define(Code.SQL0050, COUNTER, "{routine}", CONSUMER_SESSION));
        all.add(define(Code.SQL0051, COUNTER, "{commit}", CONSUMER_SESSION));
        all.add(define(Code.SQL0067, GAUGE, "{worker}", SYSTEM));
        all.add(define(Code.SQL0068, GAUGE, "s", SYSTEM));
        all.add(define(Code.SQL0069, GAUGE, "{worker}", SYSTEM));
        all.add(define(Code.SQL0070, GAUGE, "{found}", SYSTEM));
        all.add(define(Code.SQL0071, GAUGE, "s", SYSTEM));
        all.add(define(Code.SQL0072, GAUGE, "{found}", SYSTEM));
        all.add(define(Code.SQL0073, GAUGE, "{alert}", SYSTEM));
        all.add(define(Code.SQL0074, GAUGE, "{alert}", SYSTEM));
        all.add(alertCheck(Code.SQL0075, "{stream}"));
        all.add(alertCheck(Code.SQL0076, "{stream}"));
        all.add(alertCheck(Code.SQL0077, "{alert}"));
        all.add(alertCheck(Code.SQL0078, "{alert}"));
        all.add(define(Code.SQL0079, GAUGE, "", STREAM));
        for (Code code : List.of(Code.SQL0080, Code.SQL0081, Code.SQL0082, Code.SQL0083, Code.SQL0084)) {
            all.add(define(code, GAUGE, "{message}", CONSUMER_GROUP));
        }
        for (Code code : List.of(Code.SQL0085, Code.SQL0086, Code.SQL0087, Code.SQL0088)) {
            all.add(define(code, GAUGE, "{exception}", CONSUMER_GROUP));
        }
        all.add(define(Code.SQL0089, GAUGE, "s", CONSUMER_GROUP));
        all.add(define(Code.SQL0090, GAUGE, "{lease}", CONSUMER_GROUP));
        all.add(define(Code.SQL0091, GAUGE, "{routine}", CONSUMER_GROUP));
        all.add(define(Code.SQL0092, GAUGE, "{routine}", CONSUMER_GROUP));
        all.add(define(Code.SQL0093, GAUGE, "s", CONSUMER_GROUP));
        all.add(define(Code.SQL0098, GAUGE, "{partition}", STREAM));
        all.add(define(Code.SQL0099, GAUGE, "{worker}", STREAM));
        all.add(define(Code.SQL0100, GAUGE, "s", SYSTEM));
        all.add(define(Code.SQL0102, GAUGE, "", EXPORTER));
        all.add(define(Code.SQL0103, GAUGE, "{measurement}", EXPORTER));
        all.add(define(Code.SQL0155, GAUGE, "{instance}", CONSUMER_GROUP));
        all.add(define(Code.SQL0161, GAUGE, "s", STREAM));
        return List.copyOf(all);
    }

    private static MetricDefinition define(Code code, MetricKind kind, String unit, MetricScope scope) {
        return new MetricDefinition(code, kind, unit, scope, scope.attributes());
    }

    private static MetricDefinition alertCheck(Code code, String unit) {
        return new MetricDefinition(code, GAUGE, unit, SYSTEM, List.of("alert"));
    }
}
