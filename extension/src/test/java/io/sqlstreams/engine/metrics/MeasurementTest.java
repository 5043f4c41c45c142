package io.sqlstreams.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.Code;
import io.sqlstreams.DestroyOptions;
import io.sqlstreams.Measurement;
import io.sqlstreams.MeasurementProducer;
import io.sqlstreams.MetricDefinition;
import io.sqlstreams.MetricKind;
import io.sqlstreams.MetricScope;
import io.sqlstreams.MetricsHandle;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.StoredMessage;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;
import jakarta.json.Json;

/** Digest §7.5: user measurements retained on __system.metrics, read back per series; the built-in catalogue. */
@PostgresTest
class MeasurementTest extends EngineTestBase {
    private static final Instant T0 = Instant.parse("2026-12-03T10:00:00.123456Z");

    private MetricsHandle metrics;
    private MeasurementProducer producer;
    /** unique per test, so tests sharing the class's schema never read each other's series */
    private String name;

    @BeforeEach
    void handles() {
        metrics = client.system().metrics();
        producer = metrics.producer();
        name = "billing.t" + UUID.randomUUID().toString().replace("-", "").substring(0, 12) + ".queue_depth";
    }

    @Test
    void aMeasurementIsRetainedOnTheSystemStreamAndReadBackWhole() {
        Measurement sent = Measurement.gauge(name, 42.5, "{job}", Map.of("queue", "invoices", "region", "eu"))
                .at(T0).withMetadata("{\"source\":\"nightly\",\"n\":[1,2]}");

        producer.produce(sent);

        Measurement read = metrics.metric(name, Map.of("region", "eu", "queue", "invoices")).latest().orElseThrow();
        assertThat(read.name()).isEqualTo(name);
        assertThat(read.kind()).isEqualTo(MetricKind.GAUGE);
        assertThat(read.value()).isEqualTo(42.5);
        assertThat(read.unit()).isEqualTo("{job}");
        assertThat(read.attributes()).containsExactly(Map.entry("queue", "invoices"), Map.entry("region", "eu"));
        assertThat(read.at()).isEqualTo(T0);
        assertThat(Json.createReader(new StringReader(read.metadata())).readObject())
                .isEqualTo(Json.createObjectBuilder().add("source", "nightly")
                        .add("n", Json.createArrayBuilder().add(1).add(2)).build());
        io.sqlstreams.Stream stream = client.stream(SystemStreams.METRICS, MeasurementDocument.class).get()
                .orElseThrow();
        assertThat(stream.retentionTtl()).isEqualTo(Duration.ofHours(24));
        StoredMessage<MeasurementDocument> stored = client.stream(SystemStreams.METRICS, MeasurementDocument.class)
                .key(name + "{queue=\"invoices\",region=\"eu\"}").messages(1).get(0);
        assertThat(stored.routingKey()).isEqualTo(name);
        assertThat(stored.compactionRank()).isEqualTo(T0.getEpochSecond() * 1_000_000 + 123_456);
    }

    @Test
    void theHeadIsTheNewestObservationNotTheLastProducedAndHistoryKeepsBoth() {
        Map<String, String> series = Map.of("queue", "a");
        producer.produce(Measurement.counter(name, 10, "{job}", series).at(T0.plusSeconds(60)));
        producer.produce(Measurement.counter(name, 7, "{job}", series).at(T0));

        assertThat(metrics.metric(name, series).latest()).get().extracting(Measurement::value).isEqualTo(10.0);
        assertThat(metrics.metric(name, series).history(10)).extracting(Measurement::value).containsExactly(7.0, 10.0);
        assertThat(metrics.metric(name, series).history(1)).extracting(Measurement::value).containsExactly(7.0);
    }

    @Test
    void aMeasurementWithoutATimeIsObservedWhenProduced() {
        Instant before = Instant.now().minusSeconds(1);
        producer.produce(Measurement.gauge(name, -3, "ms", Map.of()));

        Measurement read = metrics.metric(name, null).latest().orElseThrow();
        assertThat(read.value()).isEqualTo(-3.0);
        assertThat(read.at()).isBetween(before, Instant.now().plusSeconds(1));
        assertThat(read.metadata()).isNull();
    }

    @Test
    void attributesMakeTheSeriesInAnyOrderAndQuotedValuesNeverCollide() {
        Map<String, String> tricky = new LinkedHashMap<>();
        tricky.put("b", "y");
        tricky.put("a", "x\",b=\"y");
        producer.produceBatch(List.of(
                Measurement.gauge(name, 1, "", Map.of("a", "x", "b", "y")),
                Measurement.gauge(name, 2, "", tricky),
                Measurement.gauge(name, 3, "", Map.of("a", "x")),
                Measurement.gauge(name, 4, "", Map.of("a", "'; DROP TABLE message_log_1; --"))));

        Map<String, String> reordered = new LinkedHashMap<>();
        reordered.put("b", "y");
        reordered.put("a", "x");
        assertThat(metrics.metric(name, reordered).latest()).get().extracting(Measurement::value).isEqualTo(1.0);
        assertThat(metrics.metric(name, tricky).latest()).get().extracting(Measurement::value).isEqualTo(2.0);
        assertThat(metrics.metric(name, Map.of("a", "x")).latest()).get().extracting(Measurement::value)
                .isEqualTo(3.0);
        assertThat(metrics.metric(name, Map.of("a", "'; DROP TABLE message_log_1; --")).latest()).get()
                .extracting(Measurement::value).isEqualTo(4.0);
        assertThat(metrics.metric(name, Map.of()).latest()).isEmpty();
    }

    @Test
    void anUnknownSeriesReadsEmptyAlsoWhereNothingIsInstalled() {
        assertThat(metrics.metric(name, Map.of("queue", "none")).latest()).isEmpty();
        assertThat(metrics.metric(name, Map.of("queue", "none")).history(5)).isEmpty();
        try (EngineClient bare = EngineClient.create(database.dataSource(), ClientConfig.builder()
                .schema(database.extraSchema("metrics_bare")).logger(logger).build(), EngineEnvironment.standalone())) {
            MetricsHandle nothing = bare.system().metrics();
            assertThat(nothing.metric(name, Map.of()).latest()).isEmpty();
            assertThat(nothing.metric(name, Map.of()).history(5)).isEmpty();
            assertThatThrownBy(() -> bare.system().get()).isInstanceOf(SqlStreamsException.class)
                    .extracting(failure -> ((SqlStreamsException) failure).code()).isEqualTo(Code.SQL0017);
        }
        assertThatThrownBy(() -> metrics.metric(name, Map.of()).history(0)).isInstanceOf(SqlStreamsException.class)
                .extracting(failure -> ((SqlStreamsException) failure).code()).isEqualTo(Code.SQL0108);
    }

    @Test
    void theMetricsStreamDoesNotHoldBackAGuardedDestroyOfTheInstallation() {
        try (EngineClient own = EngineClient.create(database.dataSource(), ClientConfig.builder()
                .schema(database.extraSchema("metrics_destroy")).allowDestroy(true).logger(logger).build(),
                EngineEnvironment.standalone())) {
            own.system().metrics().producer().produce(Measurement.gauge(name, 1, "", Map.of()));
            assertThat(own.streams()).extracting(io.sqlstreams.Stream::name).containsExactly(SystemStreams.METRICS);

            own.system().destroy(DestroyOptions.guarded());

            assertThatThrownBy(() -> own.system().get()).isInstanceOf(SqlStreamsException.class)
                    .extracting(failure -> ((SqlStreamsException) failure).code()).isEqualTo(Code.SQL0017);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidMeasurements")
    void anInvalidMeasurementIsRefusedWithItsCodeAndNothingOfItsBatchIsStored(String what, Code code,
                                                                              Measurement invalid) {
        Measurement valid = Measurement.gauge(name, 1, "", Map.of());
        List<Measurement> batch = new ArrayList<>(Arrays.asList(valid, invalid == null ? null : rename(invalid)));

        assertThatThrownBy(() -> producer.produceBatch(batch)).isInstanceOf(SqlStreamsException.class)
                .extracting(failure -> ((SqlStreamsException) failure).code()).isEqualTo(code);
        assertThatThrownBy(() -> producer.produce(batch.get(1))).isInstanceOf(SqlStreamsException.class)
                .extracting(failure -> ((SqlStreamsException) failure).code()).isEqualTo(code);
        assertThat(metrics.metric(name, Map.of()).history(10)).isEmpty();
    }

    static Stream<Arguments> invalidMeasurements() {
        Map<String, String> nullValue = new HashMap<>();
        nullValue.put("queue", null);
        Map<String, String> nullKey = new HashMap<>();
        nullKey.put(null, "x");
        Map<String, String> tooMany = new HashMap<>();
        for (int i = 0; i < MeasurementRules.MAX_ATTRIBUTES + 1; i++) {
            tooMany.put("k" + i, "v");
        }
        Map<String, String> tooLong = new HashMap<>();
        for (int i = 0; i < 5; i++) {
            tooLong.put("k" + i, "v".repeat(MeasurementRules.MAX_ATTRIBUTE_VALUE_LENGTH));
        }
        return Stream.of(
                Arguments.of("null measurement", Code.SQL0145, null),
                Arguments.of("reserved name", Code.SQL0109, gauge("sqlstreams.consumer.cursor.backlog", 1, "")),
                Arguments.of("upper case name", Code.SQL0109, gauge("Billing.depth", 1, "")),
                Arguments.of("empty word", Code.SQL0109, gauge("billing..depth", 1, "")),
                Arguments.of("SQL in the name", Code.SQL0109, gauge("billing;drop table x", 1, "")),
                Arguments.of("empty name", Code.SQL0109, gauge("", 1, "")),
                Arguments.of("null name", Code.SQL0109, gauge(null, 1, "")),
                Arguments.of("NaN", Code.SQL0145, gauge("m", Double.NaN, "")),
                Arguments.of("infinity", Code.SQL0145, gauge("m", Double.POSITIVE_INFINITY, "")),
                Arguments.of("negative counter", Code.SQL0145, Measurement.counter("m", -1, "", Map.of())),
                Arguments.of("no kind", Code.SQL0145, new Measurement("m", null, 1, "", Map.of(), null, null)),
                Arguments.of("unknown unit", Code.SQL0145, gauge("m", 1, "kg")),
                Arguments.of("empty annotation", Code.SQL0145, gauge("m", 1, "{}")),
                Arguments.of("upper case attribute key", Code.SQL0145,
                        Measurement.gauge("m", 1, "", Map.of("Queue", "a"))),
                Arguments.of("null attribute key", Code.SQL0145, Measurement.gauge("m", 1, "", nullKey)),
                Arguments.of("null attribute value", Code.SQL0145, Measurement.gauge("m", 1, "", nullValue)),
                Arguments.of("empty attribute value", Code.SQL0145, Measurement.gauge("m", 1, "", Map.of("q", ""))),
                Arguments.of("control character", Code.SQL0145, Measurement.gauge("m", 1, "", Map.of("q", "a\nb"))),
                Arguments.of("too many attributes", Code.SQL0145, Measurement.gauge("m", 1, "", tooMany)),
                Arguments.of("series key over 1024 bytes", Code.SQL0145, Measurement.gauge("m", 1, "", tooLong)),
                Arguments.of("metadata not an object", Code.SQL0145, gauge("m", 1, "").withMetadata("[1]")),
                Arguments.of("metadata not JSON", Code.SQL0145, gauge("m", 1, "").withMetadata("{")),
                Arguments.of("before 1970", Code.SQL0145, gauge("m", 1, "").at(Instant.parse("1969-12-31T23:59:59Z"))));
    }

    @Test
    void theCatalogueNamesEveryBuiltInMetricCodeOnceWithItsScopeAttributes() {
        List<MetricDefinition> definitions = metrics.definitions();

        assertThat(definitions).extracting(MetricDefinition::code).containsExactlyElementsOf(
                Arrays.stream(Code.values()).filter(code -> code.kind() == Code.Kind.METRIC).toList());
        assertThat(definitions).allSatisfy(definition -> {
            assertThat(definition.name()).startsWith("sqlstreams.");
            assertThat(definition.description()).isNotBlank();
        });
        MetricDefinition backlog = BuiltInMetrics.named("sqlstreams.consumer.cursor.backlog").orElseThrow();
        assertThat(backlog.code()).isEqualTo(Code.SQL0083);
        assertThat(backlog.kind()).isEqualTo(MetricKind.GAUGE);
        assertThat(backlog.unit()).isEqualTo("{message}");
        assertThat(backlog.scope()).isEqualTo(MetricScope.CONSUMER_GROUP);
        assertThat(backlog.attributes()).containsExactly("stream", "group");
        MetricDefinition claimed = BuiltInMetrics.named("sqlstreams.consumer.session.claimed").orElseThrow();
        assertThat(claimed.kind()).isEqualTo(MetricKind.COUNTER);
        assertThat(claimed.attributes()).containsExactly("stream", "group", "version", "session");
        assertThat(BuiltInMetrics.named("sqlstreams.alert.check.published_alerts").orElseThrow().attributes())
                .containsExactly("alert");
        assertThat(BuiltInMetrics.named("sqlstreams.metrics.collector.completed_timestamp").orElseThrow().unit())
                .isEqualTo("s");
    }

    @Test
    void aBuiltInSeriesIsReadOnlyWithItsScopesAttributesAndRecordedOnlyInItsKindAndUnit() {
        assertThatThrownBy(() -> metrics.metric("sqlstreams.consumer.cursor.backlog", Map.of("stream", "s")).latest())
                .isInstanceOfSatisfying(SqlStreamsException.class, failure -> assertThat(failure.code())
                        .isEqualTo(Code.SQL0145)).hasMessageContaining("[stream, group]");
        assertThatThrownBy(() -> MeasurementRules.checkMeasurement(Measurement.gauge(
                "sqlstreams.consumer.session.claimed", 1, "{message}", Map.of("stream", "s", "group", "g",
                        "version", "1", "session", "h"))))
                .isInstanceOfSatisfying(SqlStreamsException.class, failure -> assertThat(failure.code())
                        .isEqualTo(Code.SQL0145)).hasMessageContaining("is a counter");
        assertThat(metrics.metric("sqlstreams.consumer.cursor.backlog", Map.of("stream", "s", "group", "g"))
                .latest()).isEmpty();
    }

    private Measurement rename(Measurement measurement) {
        return "m".equals(measurement.name())
                ? new Measurement(name + ".bad", measurement.kind(), measurement.value(), measurement.unit(),
                measurement.attributes(), measurement.at(), measurement.metadata())
                : measurement;
    }

    private static Measurement gauge(String name, double value, String unit) {
        return Measurement.gauge(name, value, unit, Map.of());
    }
}
