package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.sqlstreams.engine.metrics.BillingSeries;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/** {@code metric list|latest|history} against user series and one collector pass of built-in series. */
@PostgresTest
class MetricCommandsTest {
    private static final Instant T0 = BillingSeries.T0;

    private static Map<String, String> environment;

    @BeforeAll
    static void recordSeries(TestDatabase database) throws SQLException {
        BillingSeries.record(database);
        environment = CliRun.environmentFor(database);
    }

    @Test
    void listShowsEverySeriesWithItsNewestValueInAnAlignedTable() {
        CliRun run = CliRun.run(environment, "metric", "list");

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).isEmpty();
        List<Map<String, String>> rows = TextTables.rows(run.outLines());
        assertThat(rows.subList(0, 4)).extracting(row -> row.get("NAME") + " " + row.get("ATTRIBUTES"))
                .containsExactly("billing.jobs_done -", "billing.queue_depth queue=invoices,region=eu",
                        "billing.queue_depth queue=invoices,region=us", "billing.queue_depth queue=refunds,region=eu");
        assertThat(rows.get(0)).containsEntry("KIND", "counter").containsEntry("UNIT", "-")
                .containsEntry("VALUE", "120").containsEntry("AT", T0.plusSeconds(30).toString());
        assertThat(rows.get(3)).containsEntry("KIND", "gauge").containsEntry("UNIT", "{job}")
                .containsEntry("VALUE", "3.5");
        assertThat(rows).anySatisfy(row -> assertThat(row).containsEntry("NAME", "sqlstreams.consumer.cursor.head")
                .containsEntry("ATTRIBUTES", "group=audit,stream=orders.placed").containsEntry("VALUE", "0"));
    }

    @Test
    void listTakesOnlyTheBuiltInOrOnlyTheUserSeries() {
        CliRun builtIn = CliRun.run(environment, "metric", "list", "--builtin", "--quiet");
        CliRun user = CliRun.run(environment, "metric", "list", "--user", "-q");

        assertThat(builtIn.exitCode()).isZero();
        assertThat(builtIn.outLines()).isNotEmpty().doesNotHaveDuplicates()
                .allSatisfy(name -> assertThat(name).startsWith("sqlstreams."))
                .contains("sqlstreams.consumer.cursor.backlog", "sqlstreams.metrics.collector.completed_timestamp");
        assertThat(user.exitCode()).isZero();
        assertThat(user.outLines()).containsExactly("billing.jobs_done", "billing.queue_depth");
    }

    @Test
    void listJsonIsAnArrayOfSeries() {
        CliRun run = CliRun.run(environment, "metric", "list", "--user", "-o", "json");

        assertThat(run.exitCode()).isZero();
        JsonArray series = run.json().asJsonArray();
        assertThat(series).hasSize(4);
        assertThat(series.getJsonObject(1)).isEqualTo(Json.createObjectBuilder().add("name", "billing.queue_depth")
                .add("kind", "gauge").add("unit", "{job}")
                .add("attributes", Json.createObjectBuilder().add("queue", "invoices").add("region", "eu"))
                .add("value", 17).add("at", T0.toString()).build());
    }

    @Test
    void builtinAndUserTogetherAreAUsageError() {
        CliRun run = CliRun.run(environment, "metric", "list", "--builtin", "--user");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).singleElement().asString().isEqualTo("SQL0108 invalid configuration:"
                + " --builtin = true: cannot be combined with --user; leave both out to list every series");
    }

    @Test
    void latestShowsTheMetricThenItsSeriesUpToTheSeriesLimit() {
        CliRun run = CliRun.run(environment, "metric", "latest", "billing.queue_depth", "--series-limit", "2");

        assertThat(run.exitCode()).isZero();
        int blank = run.outLines().indexOf("");
        assertThat(TextTables.fields(run.outLines().subList(0, blank))).containsExactly(
                Map.entry("name", "billing.queue_depth"), Map.entry("kind", "gauge"), Map.entry("unit", "{job}"),
                Map.entry("series", "2 of 3 (raise --series-limit for more)"));
        assertThat(TextTables.rows(run.outLines().subList(blank + 1, run.outLines().size())))
                .extracting(row -> row.get("ATTRIBUTES") + " " + row.get("VALUE") + " " + row.get("AT"))
                .containsExactly("queue=invoices,region=eu 17 " + T0, "queue=invoices,region=us 5 " + T0);
    }

    @Test
    void latestJsonMatchesEveryAttributeGivenAndCountsTheSeries() {
        CliRun run = CliRun.run(environment, "metric", "latest", "billing.queue_depth", "--attribute", "region=eu",
                "-o", "json");

        assertThat(run.exitCode()).isZero();
        JsonObject document = run.json().asJsonObject();
        assertThat(document.keySet()).containsExactly("name", "exists", "kind", "unit", "series", "series_total");
        assertThat(document.getBoolean("exists")).isTrue();
        assertThat(document.getString("kind")).isEqualTo("gauge");
        assertThat(document.getString("unit")).isEqualTo("{job}");
        assertThat(document.getJsonNumber("series_total").longValue()).isEqualTo(2);
        assertThat(document.getJsonArray("series").getJsonObject(1)).isEqualTo(Json.createObjectBuilder()
                .add("attributes", Json.createObjectBuilder().add("queue", "refunds").add("region", "eu"))
                .add("value", Json.createValue(new java.math.BigDecimal("3.5"))).add("at", T0.toString()).build());

        CliRun narrower = CliRun.run(environment, "metric", "latest", "billing.queue_depth", "--attribute",
                "region=eu", "--attribute", "queue=refunds", "-o", "json");
        assertThat(narrower.json().asJsonObject().getJsonNumber("series_total").longValue()).isEqualTo(1);
    }

    @Test
    void historyListsEachSeriesMeasurementsNewestFirst() {
        CliRun json = CliRun.run(environment, "metric", "history", "billing.jobs_done", "-o", "json");
        CliRun limited = CliRun.run(environment, "metric", "history", "billing.jobs_done", "--limit", "1");

        assertThat(json.exitCode()).isZero();
        JsonObject series = json.json().asJsonObject().getJsonArray("series").getJsonObject(0);
        assertThat(series.getJsonObject("attributes")).isEmpty();
        assertThat(series.getJsonNumber("value").intValue()).isEqualTo(120);
        assertThat(series.getJsonArray("measurements")).isEqualTo(Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("value", 120).add("at", T0.plusSeconds(30).toString()))
                .add(Json.createObjectBuilder().add("value", 100).add("at", T0.toString())).build());
        assertThat(json.json().asJsonObject().getString("kind")).isEqualTo("counter");
        assertThat(limited.exitCode()).isZero();
        int blank = limited.outLines().indexOf("");
        assertThat(TextTables.rows(limited.outLines().subList(blank + 1, limited.outLines().size())))
                .extracting(row -> row.get("ATTRIBUTES") + " " + row.get("AT") + " " + row.get("VALUE"))
                .containsExactly("- " + T0.plusSeconds(30) + " 120");
    }

    @Test
    void noMatchingSeriesExitsOne() {
        CliRun text = CliRun.run(environment, "metric", "latest", "billing.queue_depth", "--attribute", "region=ap");
        CliRun json = CliRun.run(environment, "metric", "history", "billing.unknown", "-o", "json");
        CliRun builtIn = CliRun.run(environment, "metric", "latest", "sqlstreams.consumer.session.dead", "-o", "json");

        assertThat(text.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(text.out()).isEmpty();
        assertThat(text.errLines()).containsExactly(
                "no retained series of metric \"billing.queue_depth\" with region=ap");
        assertThat(json.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(json.json()).isEqualTo(Json.createObjectBuilder().add("name", "billing.unknown")
                .add("exists", false).add("kind", JsonValue.NULL).add("unit", JsonValue.NULL)
                .add("series", Json.createArrayBuilder()).add("series_total", 0).build());
        assertThat(builtIn.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(builtIn.json().asJsonObject().getString("kind")).isEqualTo("counter");
        assertThat(builtIn.json().asJsonObject().getString("unit")).isEqualTo("{message}");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "latest billing.queue_depth --attribute region     | SQL0145 --attribute \"region\" is not KEY=VALUE",
        "latest billing.queue_depth --attribute =eu        | SQL0145 --attribute \"=eu\" is not KEY=VALUE",
        "latest billing.queue_depth --attribute Region=eu  | SQL0145 series \"billing.queue_depth\" has attribute key",
        "latest billing.queue_depth --series-limit 0       | SQL0108 invalid configuration: --series-limit = 0",
        "history billing.queue_depth --limit -1            | SQL0108 invalid configuration: --limit = -1",
        "history Billing.Depth                             | SQL0109 invalid metric name \"Billing.Depth\""})
    void malformedArgumentsAreUsageErrorsWithTheirCode(String arguments, String error) {
        List<String> args = new java.util.ArrayList<>(List.of("metric"));
        args.addAll(List.of(arguments.split(" ")));

        CliRun run = CliRun.run(environment, args.toArray(String[]::new));

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).singleElement().asString().startsWith(error);
    }
}
