package io.sqlstreams.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import io.sqlstreams.Alert;
import io.sqlstreams.AlertEvaluationSnapshot;
import io.sqlstreams.AlertState;
import io.sqlstreams.ClientConfig;
import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.Measurement;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.MetricFilter;
import io.sqlstreams.MetricListing;
import io.sqlstreams.MetricsHandle;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.Schedule;
import io.sqlstreams.ScheduleRunOptions;
import io.sqlstreams.SchedulerConfig;
import io.sqlstreams.SchedulerInstance;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.StreamAlertConfig;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.SystemConfig;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.TestDatabase;

/** The README's examples, compiled and run: if this test breaks, the README is wrong. */
@PostgresTest
class ReadmeExamplesTest {

    // README: payload
    @SchemaVersion(1)
    public record PaymentRequestedV1(String orderId, long amountCents) {
    }

    @Test
    void producingAndConsuming(TestDatabase database) throws Exception {
        DataSource dataSource = database.dataSource();
        List<String> charged = new CopyOnWriteArrayList<>();

        // README: client and stream
        SqlStreams client = SqlStreams.create(dataSource, ClientConfig.builder().schema(database.schema()).build());
        StreamHandle<PaymentRequestedV1> payments = client.stream("payments.requested", PaymentRequestedV1.class);
        payments.register(StreamConfig.defaults());

        // README: producing
        try (Producer<PaymentRequestedV1> producer = payments.producer().register()) {
            ProduceResult one = producer.produce(new PaymentRequestedV1("order-1", 1999));

            ProduceResult again = producer.produce(new PaymentRequestedV1("order-1", 1999),
                    ProduceOptions.builder().idempotencyKey("order-1").messageKey("customer-42").build());

            List<ProduceResult> batch = producer.produceBatch(List.of(
                    ProduceItem.of(new PaymentRequestedV1("order-2", 500)),
                    ProduceItem.of(new PaymentRequestedV1("order-3", 750))));

            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(false);
                try (PreparedStatement order = connection.prepareStatement(
                        "CREATE TABLE IF NOT EXISTS " + database.schema() + ".orders (id text PRIMARY KEY)")) {
                    order.execute();
                }
                producer.produce(connection, new PaymentRequestedV1("order-4", 100), ProduceOptions.none());
                connection.commit();
            }
            // README: producing end
            assertThat(one.duplicate()).isFalse();
            assertThat(again.duplicate()).isFalse();
            assertThat(batch).hasSize(2);
        }

        // README: consuming
        ConsumerInstance<PaymentRequestedV1> chargeCards = payments.consumer("charge-cards").register(
                ConsumerConfig.builder()
                        .message(MessageOptions.builder()
                                .timeout(Duration.ofSeconds(10))
                                .retry(RetryPolicy.builder().maxRetries(3).baseDelay(Duration.ofSeconds(2)).build())
                                .build())
                        .build());

        try (ConsumerSession session = chargeCards.start(payment -> {
            MessageMeta meta = MessageMeta.current();
            charged.add(payment.orderId() + "@" + meta.messageId());
        }, ConsumeOptions.builder().batchLimit(20).build())) {
            // README: consuming end
            await().atMost(Duration.ofSeconds(20)).until(() -> charged.size() == 5);
            assertThat(session.isRunning()).isTrue();
        }

        // README: built-in metrics
        List<Measurement> now = payments.consumer("charge-cards").metrics().snapshot();   // read from the rows now
        List<Measurement> recorded = payments.consumer("charge-cards").metrics().latest(); // as the collector last saw it
        List<Measurement> streamNow = payments.metrics().snapshot();
        // README: built-in metrics end
        assertThat(now).extracting(Measurement::name).contains("sqlstreams.consumer.cursor.backlog");
        assertThat(recorded).allSatisfy(measurement -> assertThat(measurement.attributes())
                .containsEntry("group", "charge-cards"));
        assertThat(streamNow).extracting(Measurement::name).contains("sqlstreams.stream.state.partitions");
    }

    @Test
    void metrics(TestDatabase database) {
        SqlStreams client = SqlStreams.create(database.dataSource(),
                ClientConfig.builder().schema(database.schema()).build());

        // README: metrics
        MetricsHandle metrics = client.system().metrics();
        metrics.producer().produce(Measurement.gauge("billing.queue_depth", 17, "{job}", Map.of("queue", "invoices")));

        Optional<Measurement> latest = metrics.metric("billing.queue_depth", Map.of("queue", "invoices")).latest();
        List<Measurement> last10 = metrics.metric("billing.queue_depth", Map.of("queue", "invoices")).history(10);
        MetricListing invoices = metrics.latest(MetricFilter.all().withAttributes(Map.of("queue", "invoices")).limit(10));
        // README: metrics end

        assertThat(latest).get().extracting(Measurement::value).isEqualTo(17.0);
        assertThat(last10).hasSize(1);
        assertThat(invoices.latest()).containsExactly(latest.get());
        assertThat(invoices.seriesTotal()).isEqualTo(1);
        client.close();
    }

    @Test
    void alerts(TestDatabase database) {
        SqlStreams client = SqlStreams.create(database.dataSource(),
                ClientConfig.builder().schema(database.schema()).build());
        StreamHandle<PaymentRequestedV1> payments = client.stream("payments.watched", PaymentRequestedV1.class);
        payments.register(StreamConfig.defaults());

        // README: alerts
        client.system().register(new SystemConfig(null, null).withAlerts(
                new StreamAlertConfig("@every 30s", 2_000L, Duration.ofMinutes(5), null, false), // partition_count
                null, null, null));                                                         // the rest: defaults

        Optional<Alert> latest = payments.alerts().alert("partition_count").latest();     // SQL0005 once the stream is gone
        List<Alert> reports = payments.alerts().alert("partition_count").history(10);    // newest first
        AlertEvaluationSnapshot now = payments.alerts().alert("worker_liveness").snapshot(); // evaluated, not recorded
        List<Alert> installation = client.system().alerts().list();                       // metrics_collector_progress
        // README: alerts end

        assertThat(latest).isEmpty();
        assertThat(reports).isEmpty();
        assertThat(now.state()).as("the collector has recorded nothing yet").isEqualTo(AlertState.INSUFFICIENT);
        assertThat(installation).isEmpty();
        assertThat(client.system().get().config().partitionCountAlert().threshold()).isEqualTo(2_000L);
        client.close();
    }
    @SchemaVersion(1)
    public record SettlementRun(String ledger) {
    }

    @Test
    void schedules(TestDatabase database) throws Exception {
        SqlStreams client = SqlStreams.create(database.dataSource(),
                ClientConfig.builder().schema(database.schema()).build());
        StreamHandle<SettlementRun> ledgerJobs = client.stream("ledger.jobs", SettlementRun.class);
        ledgerJobs.register(StreamConfig.defaults());
        List<Instant> settled = new CopyOnWriteArrayList<>();

        // README: schedules
        SchedulerInstance<SettlementRun> nightly = client.scheduler("nightly-settlement").register(
                "ledger.jobs", "TZ=Europe/Berlin 30 2 * * *", new SettlementRun("main"),
                SchedulerConfig.defaults().withTimeout(Duration.ofMinutes(10)).withConcurrency(Concurrency.EXCLUSIVE)
                        .withMetadata("{\"owner\": \"finance\"}"));

        // handled like any message of the stream; its message key and routing key are the schedule's name
        ConsumerSession session = ledgerJobs.consumer("settlement").register().start(run -> {
            Instant due = MessageMeta.current().scheduledAt();   // 02:30 Berlin time of the day it is for
            settled.add(due);
        }, ConsumeOptions.defaults());
        // README: schedules end

        try (session) {
            ProduceResult now = nightly.handle().run(ScheduleRunOptions.defaults());
            await().atMost(Duration.ofSeconds(30)).until(() -> settled.size() == 1);
            assertThat(now.duplicate()).isFalse();
        }
        Schedule stored = client.scheduler("nightly-settlement").get();
        assertThat(stored.nextScheduledAt().atZone(java.time.ZoneId.of("Europe/Berlin")).toLocalTime())
                .isEqualTo(java.time.LocalTime.of(2, 30));
        assertThat(stored.config().metadata()).isEqualTo("{\"owner\": \"finance\"}");
        client.close();
    }
}
