package io.sqlstreams.engine.metrics.prometheus;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.PrometheusNaming;
import io.prometheus.metrics.model.snapshots.Unit;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricDefinition;
import io.sqlstreams.MetricKind;
import io.sqlstreams.engine.metrics.BuiltInMetrics;

/**
 * Retained measurements as Prometheus metric families (digest §7.5). A family is every series of one metric name.
 * Prometheus wants base units, so a duration (unit {@code ms} or {@code s}, the two units of time a measurement may
 * have) is exported in seconds, its value converted. Names are translated by the Prometheus library: dots become
 * underscores, a duration adds the unit suffix {@code _seconds} (annotation units add none), and the sample of a
 * counter ends in {@code _total}. Gauges export their value, counters their stored cumulative total, without a
 * created time. A family that cannot be exported unambiguously is rejected whole, and the others still export: its
 * series disagree on kind or unit ({@code ms} and {@code s} agree: both export seconds), two of its attribute keys
 * translate to one label, its translated name is another family's too, or a user metric translates into the
 * library's {@code sqlstreams_} namespace.
 */
final class FamilyTranslation {
    private static final String RESERVED_NAMESPACE = "sqlstreams_";
    /** The units of time a measurement may have, each with the seconds in one of it. */
    private static final Map<String, Double> SECONDS_PER = Map.of("ms", 1e-3, "s", 1.0);

    /** A family left out of this scrape, with why and how many series it had. */
    record Rejection(String family, String reason, int series) {
    }

    /** What one scrape exports, and what it leaves out. */
    record Result(List<MetricSnapshot> families, List<Rejection> rejections) {
        int rejectedSeries() {
            return rejections.stream().mapToInt(Rejection::series).sum();
        }
    }

    private FamilyTranslation() {
    }

    /** {@code latest}: the newest measurement of every series, grouped here by metric name. */
    static Result translate(List<Measurement> latest) {
        List<Rejection> rejections = new ArrayList<>();
        List<Family> consistent = consistent(latest, rejections);
        // the reserved namespace is checked first, so that a user family there cannot take a built-in one down
        List<Family> unreserved = outsideReservedNamespace(consistent, rejections);
        List<MetricSnapshot> exported = unambiguous(unreserved, rejections).stream().map(Family::snapshot).toList();
        return new Result(exported, rejections);
    }

    private static List<Family> consistent(List<Measurement> latest, List<Rejection> rejections) {
        Map<String, List<Measurement>> byName = new LinkedHashMap<>();
        latest.forEach(measurement -> byName.computeIfAbsent(measurement.name(), name -> new ArrayList<>())
                .add(measurement));
        List<Family> consistent = new ArrayList<>();
        byName.forEach((name, series) -> {
            String problem = conflict(series);
            if (problem == null) {
                consistent.add(new Family(name, series));
            } else {
                rejections.add(new Rejection(name, problem, series.size()));
            }
        });
        return consistent;
    }

    private static List<Family> outsideReservedNamespace(List<Family> families, List<Rejection> rejections) {
        List<Family> outside = new ArrayList<>();
        for (Family family : families) {
            if (!family.builtIn() && family.exportedName.startsWith(RESERVED_NAMESPACE)) {
                rejections.add(family.rejected("its translated name " + family.exportedName + " lies in the"
                        + " library's reserved " + RESERVED_NAMESPACE + " namespace"));
            } else {
                outside.add(family);
            }
        }
        return outside;
    }

    private static List<Family> unambiguous(List<Family> families, List<Rejection> rejections) {
        Map<String, List<Family>> byExportedName = families.stream().collect(Collectors.groupingBy(
                family -> family.exportedName, LinkedHashMap::new, Collectors.toList()));
        List<Family> unambiguous = new ArrayList<>();
        for (Family family : families) {
            List<Family> sameName = byExportedName.get(family.exportedName);
            if (sameName.size() == 1) {
                unambiguous.add(family);
            } else {
                rejections.add(family.rejected("its translated name " + family.exportedName + " is also that of "
                        + sameName.stream().filter(other -> other != family).map(other -> other.name)
                        .collect(Collectors.joining(", "))));
            }
        }
        return unambiguous;
    }

    /** Why the family's series cannot share one family, or null when they can. */
    private static String conflict(List<Measurement> series) {
        Set<String> kinds = series.stream().map(measurement -> measurement.kind().wireName())
                .collect(Collectors.toCollection(TreeSet::new));
        if (kinds.size() > 1) {
            return "its series disagree on the kind: " + String.join(", ", kinds);
        }
        Set<String> units = series.stream().map(measurement -> "\"" + measurement.unit() + "\"")
                .collect(Collectors.toCollection(TreeSet::new));
        if (series.stream().map(measurement -> unit(measurement.unit()) == null ? measurement.unit() : "s").distinct()
                .count() > 1) {
            return "its series disagree on the unit: " + String.join(", ", units);
        }
        Map<String, Set<String>> keysByLabel = new LinkedHashMap<>();
        series.forEach(measurement -> measurement.attributes().keySet().forEach(key -> keysByLabel
                .computeIfAbsent(PrometheusNaming.prometheusName(key), label -> new TreeSet<>()).add(key)));
        return keysByLabel.entrySet().stream().filter(label -> label.getValue().size() > 1).findFirst()
                .map(label -> "its attribute keys " + String.join(", ", label.getValue())
                        + " all translate to label " + label.getKey())
                .orElse(null);
    }

    /** The Prometheus unit of a UCUM unit: seconds for a unit of time; none for any other, such as {@code {job}}. */
    private static Unit unit(String ucum) {
        return SECONDS_PER.containsKey(ucum) ? Unit.SECONDS : null;
    }

    /** A measurement's value in its family's unit: a duration in seconds, anything else as recorded. */
    private static double value(Measurement measurement) {
        return measurement.value() * SECONDS_PER.getOrDefault(measurement.unit(), 1.0);
    }

    /** One metric's series, of one kind and unit. */
    private static final class Family {
        private final String name;
        private final List<Measurement> series;
        private final Unit unit;
        private final String exportedName;

        Family(String name, List<Measurement> series) {
            this.name = name;
            this.series = series;
            this.unit = unit(series.get(0).unit());
            this.exportedName = PrometheusNaming.prometheusName(PrometheusNaming.sanitizeMetricName(name, unit));
        }

        Rejection rejected(String reason) {
            return new Rejection(name, reason, series.size());
        }

        boolean builtIn() {
            return name.startsWith(BuiltInMetrics.RESERVED_PREFIX);
        }

        MetricSnapshot snapshot() {
            String help = BuiltInMetrics.named(name).map(MetricDefinition::description).orElse(name);
            if (series.get(0).kind() == MetricKind.COUNTER) {
                CounterSnapshot.Builder counter = CounterSnapshot.builder().name(exportedName).help(help).unit(unit);
                series.forEach(measurement -> counter.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                        .value(value(measurement)).labels(labels(measurement)).build()));
                return counter.build();
            }
            GaugeSnapshot.Builder gauge = GaugeSnapshot.builder().name(exportedName).help(help).unit(unit);
            series.forEach(measurement -> gauge.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                    .value(value(measurement)).labels(labels(measurement)).build()));
            return gauge.build();
        }

        private static Labels labels(Measurement measurement) {
            Labels.Builder labels = Labels.builder();
            measurement.attributes().forEach((key, value) -> labels.label(PrometheusNaming.prometheusName(key),
                    value));
            return labels.build();
        }
    }
}
