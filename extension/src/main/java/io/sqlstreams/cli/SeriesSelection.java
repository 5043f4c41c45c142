package io.sqlstreams.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sqlstreams.Code;
import io.sqlstreams.MetricFilter;
import io.sqlstreams.Quoting;
import io.sqlstreams.SqlStreamsException;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The {@code <name> [--attribute k=v]… [--series-limit N]} arguments that pick the series of one metric (a picocli
 * mixin). Malformed input is refused with the library's codes: SQL0109 for the name, SQL0145 for an attribute,
 * SQL0108 for a limit.
 */
final class SeriesSelection {
    static final int DEFAULT_SERIES_LIMIT = 10;

    @Parameters(index = "0", paramLabel = "<name>", description = "the metric, such as sqlstreams.consumer.cursor.backlog")
    private String name;

    @Option(names = "--attribute", paramLabel = "KEY=VALUE",
            description = "only series with this attribute (repeatable; a series may carry more)")
    private List<String> attributes = new ArrayList<>();

    @Option(names = "--series-limit", paramLabel = "N",
            description = "at most this many series (default " + DEFAULT_SERIES_LIMIT + ")")
    private int seriesLimit = DEFAULT_SERIES_LIMIT;

    String name() {
        return name;
    }

    MetricFilter filter() {
        FlagValues.positive("--series-limit", seriesLimit);
        return MetricFilter.all().named(name).withAttributes(attributes()).limit(seriesLimit);
    }

    private Map<String, String> attributes() {
        Map<String, String> parsed = new LinkedHashMap<>();
        for (String attribute : attributes) {
            int equals = attribute.indexOf('=');
            if (equals < 1) {
                throw new SqlStreamsException(Code.SQL0145, "--attribute " + Quoting.quote(attribute)
                        + " is not KEY=VALUE, such as --attribute stream=payments.requested");
            }
            String key = attribute.substring(0, equals);
            String value = attribute.substring(equals + 1);
            String earlier = parsed.putIfAbsent(key, value);
            if (earlier != null && !earlier.equals(value)) {
                throw new SqlStreamsException(Code.SQL0145, "--attribute " + key + " is given twice, as "
                        + Quoting.quote(earlier) + " and " + Quoting.quote(value) + ": a series has one value per key");
            }
        }
        return parsed;
    }
}
