package io.sqlstreams.cli;

import java.lang.System.Logger.Level;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

import io.sqlstreams.Code;
import io.sqlstreams.MetricDefinition;
import io.sqlstreams.MetricScope;
import io.sqlstreams.Quoting;
import io.sqlstreams.engine.metrics.BuiltInMetrics;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code explain [code]}: the diagnostic catalogue, offline. A code (SQL0059, 0059 or 59), a metric or alert name
 * ({@code partition_count}) or a counter key of a session's stop line ({@code ready_count}, the session metric
 * ending {@code .ready}) shows that entry, a metric's with its kind, unit, scope and attribute keys; no argument
 * lists every code.
 */
@Command(name = "explain", description = "Explain a diagnostic code: its kind, level, whether a retry may help,"
        + " what it means and what to do. Without a code, list them all.")
final class ExplainCommand implements Callable<Integer> {
    private static final String COUNTER_KEY_SUFFIX = "_count";

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "[code]",
            description = "SQL0059, 0059 or 59, a metric or alert name, or a counter key such as ready_count")
    private String code;

    @Override
    public Integer call() {
        Output output = SqlStreamsCommand.of(spec).output(spec);
        if (code == null) {
            listAll(output);
            return ExitCodes.OK;
        }
        Optional<Code> found = Code.find(code).or(() -> Arrays.stream(Code.values())
                .filter(candidate -> candidate.title().equalsIgnoreCase(code.trim())).findFirst())
                .or(() -> sessionCounter(code.trim()));
        if (found.isPresent()) {
            output.object(entry(found.get()));
            return ExitCodes.OK;
        }
        if (output.json()) {
            output.json(JsonValue.NULL);
        } else {
            spec.commandLine().getErr().println("no diagnostic code or name " + Quoting.quote(code)
                    + ": codes run from " + Code.values()[0].id() + " to " + Code.values()[Code.values().length - 1].id());
        }
        return ExitCodes.ABSENT;
    }

    private static void listAll(Output output) {
        if (output.json()) {
            JsonArrayBuilder array = Json.createArrayBuilder();
            Arrays.stream(Code.values()).forEach(each -> array.add(entry(each)));
            output.json(array.build());
            return;
        }
        TextTable table = TextTable.withHeaders("CODE", "KIND", "LEVEL", "RECOVERY", "TITLE");
        for (Code each : Code.values()) {
            JsonObject entry = entry(each);
            table.row(each.id(), TextTable.cell(entry.get("kind")), TextTable.cell(entry.get("level")),
                    TextTable.cell(entry.get("recovery")), each.title());
        }
        output.table(table);
    }

    /**
     * One catalogue entry. Metrics are never logged, so they have no level; only errors have a recovery
     * ({@code transient}: an unchanged retry may succeed; {@code permanent}: it will not).
     */
    private static JsonObject entry(Code code) {
        JsonObjectBuilder entry = Json.createObjectBuilder()
                .add("code", code.id())
                .add("title", code.title())
                .add("kind", lower(code.kind().name()));
        if (code.level() == Level.OFF) {
            entry.addNull("level");
        } else {
            entry.add("level", lower(code.level().name()));
        }
        if (code.recovery() == Code.Recovery.NONE) {
            entry.addNull("recovery");
        } else {
            entry.add("recovery", lower(code.recovery().name()));
        }
        entry.add("meaning", code.meaning()).add("action", code.action());
        if (code.kind() == Code.Kind.METRIC) {
            MetricDefinition metric = BuiltInMetrics.of(code);
            entry.add("metric_kind", metric.kind().wireName()).add("unit", metric.unit())
                    .add("scope", lower(metric.scope().name()))
                    .add("attributes", String.join(", ", metric.attributes()));
        }
        return entry.build();
    }

    /** The session counter a stop-line key such as {@code ready_count} reports. */
    private static Optional<Code> sessionCounter(String key) {
        if (!key.endsWith(COUNTER_KEY_SUFFIX)) {
            return Optional.empty();
        }
        String ending = "." + key.substring(0, key.length() - COUNTER_KEY_SUFFIX.length());
        return BuiltInMetrics.ofScope(MetricScope.CONSUMER_SESSION).stream()
                .filter(metric -> metric.name().endsWith(ending)).map(MetricDefinition::code).findFirst();
    }

    private static String lower(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
