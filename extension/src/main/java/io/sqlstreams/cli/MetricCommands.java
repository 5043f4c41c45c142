package io.sqlstreams.cli;

import java.util.List;
import java.util.Optional;

import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricDefinition;
import io.sqlstreams.MetricFilter;
import io.sqlstreams.MetricListing;
import io.sqlstreams.MetricsHandle;
import io.sqlstreams.Quoting;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.engine.metrics.BuiltInMetrics;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code sqlstreams metric …}: the metric series retained on {@code __system.metrics}. */
@Command(name = "metric", description = "Read the metric series retained on __system.metrics.",
        subcommands = {MetricCommands.ListSeries.class, MetricCommands.Latest.class, MetricCommands.History.class})
final class MetricCommands {
    private MetricCommands() {
    }

    @Command(name = "list", description = "List every retained series with its newest measurement, ordered by name"
            + " and then by attributes.")
    static final class ListSeries extends InstallationCommand {
        @Option(names = "--builtin", description = "only the library's series (names under sqlstreams.)")
        private boolean builtIn;

        @Option(names = "--user", description = "only the series applications produced")
        private boolean user;

        @Option(names = {"-q", "--quiet"}, description = "metric names only, one a line")
        private boolean quiet;

        @Override
        boolean quiet() {
            return quiet;
        }

        @Override
        int run(Output output, Installation installation) {
            MetricFilter filter = MetricFilter.all().origin(origin());
            List<Measurement> series;
            SqlStreams client = installation.client();
            series = client.system().metrics().latest(filter).latest();
            if (quiet) {
                series.stream().map(Measurement::name).distinct().forEach(output::line);
            } else if (output.json()) {
                JsonArrayBuilder array = Json.createArrayBuilder();
                series.forEach(measurement -> array.add(SeriesFormat.measurement(measurement)));
                output.json(array.build());
            } else {
                TextTable table = TextTable.withHeaders("NAME", "KIND", "UNIT", "ATTRIBUTES", "VALUE", "AT");
                for (Measurement measurement : series) {
                    JsonObject fields = SeriesFormat.measurement(measurement);
                    table.row(measurement.name(), measurement.kind().wireName(),
                            SeriesFormat.unitCell(fields.get("unit")),
                            TextTable.pairs(fields.getJsonObject("attributes")),
                            TextTable.cell(fields.get("value")), measurement.at().toString());
                }
                output.table(table);
            }
            return ExitCodes.OK;
        }

        private MetricFilter.Origin origin() {
            if (builtIn && user) {
                throw new InvalidConfigurationException(List.of(new InvalidConfigurationException.Violation(
                        "--builtin", true, "cannot be combined with --user; leave both out to list every series")));
            }
            return builtIn ? MetricFilter.Origin.BUILT_IN : user ? MetricFilter.Origin.USER : MetricFilter.Origin.ANY;
        }
    }

    @Command(name = "latest", description = "Show the newest retained measurement of a metric's series; --attribute"
            + " narrows them (a partial match). Exit 1 when no series matches.")
    static final class Latest extends SeriesCommand {
        @Override
        JsonObjectBuilder series(MetricsHandle metrics, Measurement newest) {
            return SeriesFormat.observation(newest);
        }

        @Override
        TextTable table(JsonArray series) {
            TextTable table = TextTable.withHeaders("ATTRIBUTES", "VALUE", "AT");
            for (JsonObject entry : series.getValuesAs(JsonObject.class)) {
                table.row(TextTable.pairs(entry.getJsonObject("attributes")),
                        TextTable.cell(entry.get("value")), TextTable.cell(entry.get("at")));
            }
            return table;
        }
    }

    @Command(name = "history", description = "Show a metric's series with their retained measurements, newest"
            + " first; --attribute narrows the series (a partial match). Exit 1 when no series matches.")
    static final class History extends SeriesCommand {
        static final int DEFAULT_LIMIT = 10;

        @Option(names = "--limit", paramLabel = "N",
                description = "at most this many measurements per series (default " + DEFAULT_LIMIT + ")")
        private int limit = DEFAULT_LIMIT;

        @Override
        void checkOptions() {
            FlagValues.positive("--limit", limit);
        }

        @Override
        JsonObjectBuilder series(MetricsHandle metrics, Measurement newest) {
            JsonArrayBuilder measurements = Json.createArrayBuilder();
            for (Measurement measurement : metrics.metric(newest.name(), newest.attributes()).history(limit)) {
                measurements.add(Json.createObjectBuilder().add("value", SeriesFormat.value(measurement))
                        .add("at", measurement.at().toString()));
            }
            return SeriesFormat.observation(newest).add("measurements", measurements);
        }

        @Override
        TextTable table(JsonArray series) {
            TextTable table = TextTable.withHeaders("ATTRIBUTES", "AT", "VALUE");
            for (JsonObject entry : series.getValuesAs(JsonObject.class)) {
                for (JsonObject measurement : entry.getJsonArray("measurements").getValuesAs(JsonObject.class)) {
                    table.row(TextTable.pairs(entry.getJsonObject("attributes")),
                            TextTable.cell(measurement.get("at")),
                            TextTable.cell(measurement.get("value")));
                }
            }
            return table;
        }
    }

    /**
     * {@code latest} and {@code history}: one document of the metric's {@code name}, whether any series matched
     * ({@code exists}), its {@code kind} and {@code unit}, the matching {@code series} up to the series limit and
     * their {@code series_total}.
     */
    abstract static class SeriesCommand extends InstallationCommand {
        @Mixin
        private SeriesSelection selection;

        /** Usage checks of the subcommand's own options, before anything is read. */
        void checkOptions() {
        }

        /** One listed series, whose newest retained measurement is {@code newest}. */
        abstract JsonObjectBuilder series(MetricsHandle metrics, Measurement newest);

        /** The text table of the document's {@code series}. */
        abstract TextTable table(JsonArray series);

        @Override
        final int run(Output output, Installation installation) {
            checkOptions();
            MetricFilter filter = selection.filter();
            JsonObject document;
            SqlStreams client = installation.client();
            MetricsHandle metrics = client.system().metrics();
            document = document(metrics, metrics.latest(filter));
            boolean exists = document.getBoolean("exists");
            if (output.json()) {
                output.json(document);
            } else if (exists) {
                printText(document, output);
            } else {
                err().println("no retained series of metric " + Quoting.quote(selection.name())
                        + (filter.attributes().isEmpty() ? "" : " with "
                        + TextTable.pairs(SeriesFormat.attributes(filter.attributes()))));
            }
            return exists ? ExitCodes.OK : ExitCodes.ABSENT;
        }

        private JsonObject document(MetricsHandle metrics, MetricListing listing) {
            Optional<MetricDefinition> builtIn = BuiltInMetrics.named(selection.name());
            Optional<Measurement> newest = listing.latest().stream().findFirst();
            JsonArrayBuilder series = Json.createArrayBuilder();
            listing.latest().forEach(measurement -> series.add(series(metrics, measurement)));
            return Json.createObjectBuilder()
                    .add("name", selection.name())
                    .add("exists", listing.seriesTotal() > 0)
                    .add("kind", builtIn.map(definition -> definition.kind().wireName())
                            .or(() -> newest.map(measurement -> measurement.kind().wireName()))
                            .<JsonValue>map(Json::createValue).orElse(JsonValue.NULL))
                    .add("unit", builtIn.map(MetricDefinition::unit).or(() -> newest.map(Measurement::unit))
                            .<JsonValue>map(Json::createValue).orElse(JsonValue.NULL))
                    .add("series", series)
                    .add("series_total", listing.seriesTotal())
                    .build();
        }

        private void printText(JsonObject document, Output output) {
            JsonArray series = document.getJsonArray("series");
            output.table(new TextTable()
                    .row("name", document.getString("name"))
                    .row("kind", TextTable.cell(document.get("kind")))
                    .row("unit", SeriesFormat.unitCell(document.get("unit")))
                    .row("series", series.size() + " of " + document.getJsonNumber("series_total")
                            + (series.size() < document.getJsonNumber("series_total").longValue()
                            ? " (raise --series-limit for more)" : "")));
            output.line("");
            output.table(table(series));
        }
    }
}
