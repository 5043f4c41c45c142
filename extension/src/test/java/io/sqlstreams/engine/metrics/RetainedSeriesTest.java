package io.sqlstreams.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.Code;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricFilter;
import io.sqlstreams.MetricFilter.Origin;
import io.sqlstreams.MetricKind;
import io.sqlstreams.MetricListing;
import io.sqlstreams.MetricsHandle;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.TestDatabase;

/** Digest §7.5: listing the newest retained measurement of every series, filtered, limited and counted. */
@PostgresTest
class RetainedSeriesTest {
    private static final Instant T0 = BillingSeries.T0;

    private static MetricsHandle metrics;

    @BeforeAll
    static void recordSeries(TestDatabase database) {
        metrics = BillingSeries.record(database).system().metrics();
    }

    @Test
    void userSeriesAreListedByNameThenAttributesEachWithItsNewestMeasurement() {
        MetricListing user = metrics.latest(MetricFilter.all().origin(Origin.USER));

        assertThat(user.seriesTotal()).isEqualTo(4);
        assertThat(user.latest()).extracting(Measurement::name, Measurement::attributes, Measurement::value)
                .containsExactly(
                        tuple("billing.jobs_done", Map.of(), 120.0),
                        tuple("billing.queue_depth", Map.of("queue", "invoices", "region", "eu"), 17.0),
                        tuple("billing.queue_depth", Map.of("queue", "invoices", "region", "us"), 5.0),
                        tuple("billing.queue_depth", Map.of("queue", "refunds", "region", "eu"), 3.5));
        assertThat(user.latest().get(0).at()).isEqualTo(T0.plusSeconds(30));
        assertThat(user.latest().get(0).kind()).isEqualTo(MetricKind.COUNTER);
        assertThat(user.latest().get(1).unit()).isEqualTo("{job}");
    }

    @Test
    void builtInSeriesAreTheCollectorsAndTogetherWithTheUserSeriesMakeEverySeries() {
        MetricListing builtIn = metrics.latest(MetricFilter.all().origin(Origin.BUILT_IN));
        MetricListing all = metrics.latest(MetricFilter.all());

        assertThat(builtIn.latest()).isNotEmpty().allSatisfy(measurement ->
                assertThat(measurement.name()).startsWith("sqlstreams."));
        assertThat(builtIn.seriesTotal()).isEqualTo(builtIn.latest().size());
        assertThat(builtIn.latest()).anySatisfy(measurement -> {
            assertThat(measurement.name()).isEqualTo("sqlstreams.consumer.cursor.head");
            assertThat(measurement.attributes()).isEqualTo(Map.of("stream", "orders.placed", "group", "audit"));
        });
        assertThat(all.seriesTotal()).isEqualTo(builtIn.seriesTotal() + 4);
        assertThat(all.latest()).hasSize((int) all.seriesTotal());
    }

    @Test
    void aNameAndAPartialAttributeMatchNarrowTheListing() {
        MetricFilter depth = MetricFilter.all().named("billing.queue_depth");

        assertThat(metrics.latest(depth.withAttributes(Map.of("region", "eu"))).latest())
                .extracting(Measurement::value).containsExactly(17.0, 3.5);
        assertThat(metrics.latest(depth.withAttributes(Map.of("region", "us", "queue", "invoices"))).latest())
                .extracting(Measurement::value).containsExactly(5.0);
        assertThat(metrics.latest(MetricFilter.all().withAttributes(Map.of("queue", "invoices"))).seriesTotal())
                .isEqualTo(2);
        assertThat(metrics.latest(MetricFilter.all().withAttributes(Map.of("group", "audit")))
                .latest()).isNotEmpty().allSatisfy(measurement ->
                        assertThat(measurement.attributes()).containsEntry("group", "audit"));
    }

    @Test
    void theLimitCutsTheListingButNotTheTotal() {
        MetricListing two = metrics.latest(MetricFilter.all().named("billing.queue_depth").limit(2));

        assertThat(two.latest()).extracting(Measurement::value).containsExactly(17.0, 5.0);
        assertThat(two.seriesTotal()).isEqualTo(3);
    }

    @Test
    void nothingMatchingListsNothing() {
        assertThat(metrics.latest(MetricFilter.all().named("billing.queue_depth")
                .withAttributes(Map.of("region", "ap")))).isEqualTo(MetricListing.empty());
        assertThat(metrics.latest(MetricFilter.all().named("billing.jobs_done").origin(Origin.BUILT_IN)))
                .isEqualTo(MetricListing.empty());
    }

    @Test
    void anInstallationThatNeverRecordedAMeasurementListsNothing(TestDatabase database) {
        try (EngineClient elsewhere = EngineClient.standalone(database.dataSource(), ClientConfig.builder()
                .schema(database.extraSchema("nometrics")).build())) {
            assertThat(elsewhere.system().metrics().latest(MetricFilter.all())).isEqualTo(MetricListing.empty());
        }
    }

    @Test
    void aMalformedFilterIsRefusedWithItsCode() {
        assertThatThrownBy(() -> metrics.latest(MetricFilter.all().named("Billing Depth")))
                .isInstanceOfSatisfying(SqlStreamsException.class, e -> assertThat(e.code()).isEqualTo(Code.SQL0109));
        assertThatThrownBy(() -> metrics.latest(MetricFilter.all().withAttributes(Map.of("Region", "eu"))))
                .isInstanceOfSatisfying(SqlStreamsException.class, e -> assertThat(e.code()).isEqualTo(Code.SQL0145));
        assertThatThrownBy(() -> metrics.latest(MetricFilter.all().limit(0)))
                .isInstanceOfSatisfying(SqlStreamsException.class, e -> assertThat(e.code()).isEqualTo(Code.SQL0108));
    }
}
