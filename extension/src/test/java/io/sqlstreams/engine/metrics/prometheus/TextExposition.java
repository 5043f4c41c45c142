package io.sqlstreams.engine.metrics.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4), failing the test on any line outside
 * its grammar: {@code # HELP name text}, {@code # TYPE name type}, and samples {@code name{label="value",…} value}
 * that belong to the family whose {@code # TYPE} came last (a counter's samples may add {@code _total} to its
 * name).
 */
final class TextExposition {
    private static final String NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
    private static final String LABEL_NAME = "[a-zA-Z_][a-zA-Z0-9_]*";
    private static final String LABEL_VALUE = "\"(?:[^\"\\\\\\n]|\\\\[\\\\\"n])*\"";
    private static final String VALUE = "[-+]?(?:[0-9]+(?:\\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|Inf|NaN)";
    private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") (?:[^\\\\\\n]|\\\\[\\\\n])*");
    private static final Pattern TYPE = Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|histogram|summary"
            + "|untyped)");
    private static final Pattern SAMPLE = Pattern.compile("(" + NAME + ")(\\{(?:" + LABEL_NAME + "=" + LABEL_VALUE
            + "(?:," + LABEL_NAME + "=" + LABEL_VALUE + ")*,?)?})? (" + VALUE + ")(?: -?[0-9]+)?");

    /** Every sample, keyed by its name and labels as written; and each family's type. */
    record Parsed(Map<String, Double> samples, Map<String, String> types) {
    }

    private TextExposition() {
    }

    static Parsed parse(String body) {
        assertThat(body).as("a text exposition ends with a line break").endsWith("\n");
        Map<String, Double> samples = new LinkedHashMap<>();
        Map<String, String> types = new LinkedHashMap<>();
        String family = null;
        for (String line : List.of(body.split("\n"))) {
            Matcher help = HELP.matcher(line);
            Matcher type = TYPE.matcher(line);
            Matcher sample = SAMPLE.matcher(line);
            if (help.matches()) {
                family = help.group(1);
            } else if (type.matches()) {
                family = type.group(1);
                assertThat(types.put(family, type.group(2))).as("second # TYPE of %s", family).isNull();
            } else if (sample.matches()) {
                String name = sample.group(1);
                assertThat(family).as("family of sample %s", line).isNotNull();
                assertThat(name).as("sample of family %s", family).isIn(family,
                        types.get(family).equals("counter") ? family + "_total" : family);
                String key = name + (sample.group(2) == null ? "" : sample.group(2));
                assertThat(samples.put(key, Double.valueOf(sample.group(3).replace("Inf", "Infinity"))))
                        .as("second sample %s", key).isNull();
            } else {
                throw new AssertionError("not a line of the text exposition format: " + line);
            }
        }
        return new Parsed(samples, types);
    }

    /** A sample's key as {@link #parse} writes it: {@code name{a="1",b="2"}} with escaped values. */
    static String key(String name, String... labels) {
        StringBuilder key = new StringBuilder(name);
        for (int i = 0; i < labels.length; i += 2) {
            key.append(i == 0 ? "{" : ",").append(labels[i]).append("=\"")
                    .append(labels[i + 1].replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n"))
                    .append('"');
        }
        return labels.length == 0 ? key.toString() : key.append('}').toString();
    }
}
