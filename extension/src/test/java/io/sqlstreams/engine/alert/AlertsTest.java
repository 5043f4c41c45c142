package io.sqlstreams.engine.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.StringReader;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.sqlstreams.Alert;
import io.sqlstreams.AlertEvaluationSnapshot;
import io.sqlstreams.AlertHandle;
import io.sqlstreams.AlertOwner;
import io.sqlstreams.AlertState;
import io.sqlstreams.AlertStatus;
import io.sqlstreams.ClientConfig;
import io.sqlstreams.Code;
import io.sqlstreams.CollectorProgressAlertConfig;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.Measurement;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamAlertConfig;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.SystemConfig;
import io.sqlstreams.engine.BackgroundManager;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.consume.HeldFence;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.Sql;
import jakarta.json.Json;
import jakarta.json.JsonObject;

/** Digest §7.6: the built-in alerts, evaluated by the manager's alert checks from the collector's evidence. */
@PostgresTest
class AlertsTest extends EngineTestBase {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration FAST = Duration.ofMillis(200);
    private static final Duration PENDING = Duration.ofSeconds(3);
    private static final Duration GAP = Duration.ofSeconds(1);
    private static final List<String> STREAM_ALERTS = List.of("partition_count", "compaction_read_cost",
            "worker_liveness", "fence_held");

    @SchemaVersion(1)
    public record Order(int n) {
    }

    @Test
    void partitionCountGoesPendingThenActiveThenResolvesAndAnUnchangedActiveAlertDoesNotRepeat() {
        StreamHandle<Order> stream = orders("alerted.orders");
        client.system().register(fastSystem(1L));
        AlertHandle alert = stream.alerts().alert("partition_count");

        try (BackgroundManager manager = BackgroundManager.start(client)) {
            Set<AlertState> seenBeforeActive = statesUntilRecorded(alert);

            assertThat(seenBeforeActive).as("one sample is pending; it is active only once samples span %s", PENDING)
                    .contains(AlertState.PENDING).doesNotContain(AlertState.HEALTHY);
            Alert active = alert.latest().orElseThrow();
            Stream registered = stream.get().orElseThrow();
            assertThat(active.status()).isEqualTo(AlertStatus.ACTIVE);
            assertThat(active.code()).isEqualTo(Code.SQL0094);
            assertThat(active.severity()).isEqualTo("warn");
            assertThat(active.owner()).isEqualTo(AlertOwner.stream(registered.id(), "alerted.orders"));
            assertThat(active.message()).startsWith("partition_count: stream \"alerted.orders\": ")
                    .contains("partitions (threshold 1)");
            JsonObject data = json(active.data());
            assertThat(data.getJsonNumber("threshold").longValue()).isEqualTo(1);
        assertThat(data.getJsonNumber("value").isIntegral()).as("a partition count is whole").isTrue();
            assertThat(Duration.between(Instant.parse(data.getString("unhealthy_since")),
                    Instant.parse(data.getString("observed_at")))).isGreaterThanOrEqualTo(PENDING);
            assertThat(stream.alerts().list()).containsExactly(active);
            assertThat(logger.withCode("SQL0094")).anySatisfy(line -> assertThat(line).contains("activated"));

            Instant activatedAt = active.at();
            await().atMost(WAIT).until(() -> checkRanAfter("partition_count", activatedAt.plusSeconds(1)));
            assertThat(alert.history(10)).as("an unchanged active alert repeats only after 4 hours")
                    .containsExactly(active);

            client.system().register(fastSystem(1_000_000L));
            await().atMost(WAIT).until(() -> alert.latest().map(Alert::status).orElseThrow() == AlertStatus.RESOLVED);
            List<Alert> history = alert.history(10);
            assertThat(history).hasSize(2);
            assertThat(history.get(0).message()).startsWith("partition_count resolved: ");
            assertThat(history.get(1)).isEqualTo(active);
            await().atMost(WAIT).until(() -> client.system().metrics()
                    .metric("sqlstreams.alert.state.resolved_alerts", Map.of()).latest()
                    .filter(resolved -> resolved.value() >= 1.0).isPresent());
        }
    }

    @Test
    void anOpenProducerHeldPastTheThresholdMakesFenceHeldPendingThenActiveAndItsEndResolvesIt() throws Exception {
        client.system().register(new SystemConfig(FAST, FAST).withFenceHeldAlert(
                new StreamAlertConfig("@every 200ms", 1L, PENDING, Duration.ofSeconds(2), false)));
        AlertHandle alert = client.stream("fenced.orders", Order.class).alerts().alert("fence_held");

        try (HeldFence held = HeldFence.hold(client, database.dataSource(), "fenced.orders", "fenced.orders.g");
             BackgroundManager manager = BackgroundManager.start(client)) {
            Set<AlertState> seenBeforeActive = statesUntilRecorded(alert);

            assertThat(seenBeforeActive).contains(AlertState.PENDING);
            Alert active = alert.latest().orElseThrow();
            assertThat(active.status()).isEqualTo(AlertStatus.ACTIVE);
            assertThat(active.code()).isEqualTo(Code.SQL0162);
            assertThat(active.message()).startsWith("fence_held: stream \"fenced.orders\": ")
                    .contains("s the oldest open producing transaction holding back a group has been open (threshold 1)");
            assertThat(json(active.data()).getJsonNumber("value").doubleValue()).isGreaterThanOrEqualTo(1.0);

            held.commit();
            await().atMost(WAIT).until(() -> alert.latest().map(Alert::status).orElseThrow() == AlertStatus.RESOLVED);
            assertThat(alert.snapshot().state()).isEqualTo(AlertState.HEALTHY);
        }
    }

    @Test
    void theCollectorProgressAlertFiresWhenPassesStopWhileAManagerIsLive() {
        CollectorProgressAlertConfig late = new CollectorProgressAlertConfig("@every 200ms", Duration.ofSeconds(1),
                Duration.ofSeconds(1), false);
        client.system().register(new SystemConfig(FAST, Duration.ofHours(1)).withAlerts(null, null, null, late));
        AlertHandle alert = client.system().alerts().alert("metrics_collector_progress");

        try (BackgroundManager manager = BackgroundManager.start(client)) {

            await().atMost(WAIT).until(() -> alert.latest().isPresent());
            Alert active = alert.latest().orElseThrow();
            assertThat(active.status()).isEqualTo(AlertStatus.ACTIVE);
            assertThat(active.owner()).isEqualTo(AlertOwner.system());
            assertThat(active.code()).isEqualTo(Code.SQL0101);
            AlertEvaluationSnapshot snapshot = alert.snapshot();
            assertThat(snapshot.state()).isEqualTo(AlertState.ACTIVE);
            assertThat(snapshot.maximumAge()).isEqualTo(Duration.ofSeconds(1));
            assertThat(snapshot.observedDuration()).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
            assertThat(client.system().alerts().list()).containsExactly(active);
        }
    }

    @Test
    void aFreshStartLogsNoSql0147WhileTheCollectorHasHadNoWholeGapAndPollToRecordASample() {
        orders("fresh.orders");
        StreamAlertConfig checked = new StreamAlertConfig("@every 200ms", null, null, GAP, false);
        client.system().register(new SystemConfig(FAST, Duration.ofHours(1))
                .withAlerts(checked, checked, checked, null).withFenceHeldAlert(checked));

        try (BackgroundManager manager = BackgroundManager.start(client)) {
            Instant pastTheGap = Instant.now().plus(GAP.multipliedBy(2));
            await().atMost(WAIT).until(() -> STREAM_ALERTS.stream().allMatch(alert -> checkRanAfter(alert,
                    pastTheGap)));
            assertThat(client.stream("fresh.orders", Order.class).alerts().alert("partition_count").snapshot()
                    .state()).as("the one pass's samples are older than the gap: no evidence")
                    .isEqualTo(AlertState.INSUFFICIENT);
        } finally {
            client.system().register(SystemConfig.defaults());
        }

        assertThat(logger.withCode("SQL0147")).as("the hourly collector has had no whole gap plus a poll yet")
                .isEmpty();
    }

    @Test
    void aCollectorThatStopsRecordingPastTheGapIsLoggedAsSql0147() throws SQLException {
        orders("stopped.orders");
        StreamAlertConfig checked = new StreamAlertConfig("@every 200ms", null, null, GAP, false);
        client.system().register(new SystemConfig(FAST, FAST).withAlerts(checked, null, null, null));

        Sql sql = new Sql(database);
        String collector = " WHERE name = 'metrics_collector' AND stream_id IS NULL";
        long target = sql.count("SELECT target_instances FROM {s}.worker_config" + collector);
        try (BackgroundManager manager = BackgroundManager.start(client)) {
            await().atMost(WAIT).until(() -> client.system().metrics().metric("sqlstreams.stream.state.partitions",
                    Map.of("stream", "stopped.orders")).latest().isPresent());
            sql.update("UPDATE {s}.worker_config SET target_instances = 0" + collector);

            await().atMost(WAIT).until(() -> logger.withCode("SQL0147").stream().anyMatch(line -> line.contains(
                    "alert partition_count of stream \"stopped.orders\": the newest sample is older than the"
                            + " maximum gap")));
        } finally {
            sql.update("UPDATE {s}.worker_config SET target_instances = ?" + collector, (int) target);
            client.system().register(SystemConfig.defaults());
        }
    }

    @Test
    void registeringWhileAConditionHoldsLogsSql0063AndPublishesNothing() {
        StreamHandle<Order> stream = orders("warned.orders");
        client.system().register(new SystemConfig(FAST, FAST));
        try (BackgroundManager manager = BackgroundManager.start(client)) {
            await().atMost(WAIT).until(() -> client.system().metrics().metric("sqlstreams.stream.state.partitions",
                    Map.of("stream", "warned.orders")).latest().isPresent());
        }
        client.system().register(new SystemConfig(FAST, FAST).withAlerts(
                new StreamAlertConfig("@every 1h", 1L, null, null, false), null, null, null));
        int warnedBefore = logger.withCode("SQL0063").size();

        try (Producer<Order> producer = stream.producer().register()) {
            assertThat(producer).isNotNull();
        }

        List<String> warnings = logger.withCode("SQL0063");
        assertThat(warnings.subList(warnedBefore, warnings.size())).anySatisfy(line -> assertThat(line)
                .contains("partition_count (SQL0094) holds for stream \"warned.orders\""));
        assertThat(stream.alerts().alert("partition_count").latest()).as("the pass never publishes").isEmpty();
    }

    @Test
    void readsNameTheirOwnerAndRefuseAMissingOne() {
        StreamHandle<Order> stream = orders("quiet.orders");
        stream.consumer("readers").register();

        assertThat(stream.alerts().list()).isEmpty();
        assertThat(stream.consumer("readers").alerts().list()).isEmpty();
        assertThat(stream.alerts().alert("worker_liveness").latest()).isEmpty();
        AlertEvaluationSnapshot snapshot = stream.alerts().alert("worker_liveness").snapshot();
        assertThat(snapshot.state()).isEqualTo(AlertState.INSUFFICIENT);
        assertThat(snapshot.maximumGap()).isEqualTo(StreamAlertConfig.DEFAULT_MAXIMUM_GAP);
        assertThat(snapshot.pendingDuration()).isEqualTo(StreamAlertConfig.DEFAULT_PENDING_DURATION);

        assertThatThrownBy(() -> client.stream("missing.orders", Order.class).alerts().list())
                .isInstanceOfSatisfying(SqlStreamsException.class,
                        failure -> assertThat(failure.code()).isEqualTo(Code.SQL0005));
        assertThatThrownBy(() -> stream.consumer("nobody").alerts().alert("partition_count").latest())
                .isInstanceOfSatisfying(SqlStreamsException.class,
                        failure -> assertThat(failure.code()).isEqualTo(Code.SQL0014));
        assertThatThrownBy(() -> stream.alerts().alert("metrics_collector_progress").snapshot())
                .as("a system alert is no stream's").isInstanceOf(InvalidConfigurationException.class);
        assertThatThrownBy(() -> stream.alerts().alert("partition_count").history(0))
                .isInstanceOf(InvalidConfigurationException.class);
        assertThatThrownBy(() -> client.stream("bad name'; --", Order.class).alerts().list())
                .isInstanceOfSatisfying(SqlStreamsException.class,
                        failure -> assertThat(failure.code()).isEqualTo(Code.SQL0109));
    }

    @Test
    void whereNothingIsInstalledTheSystemHasNoAlertsAndNothingToEvaluate() {
        try (EngineClient bare = EngineClient.create(database.dataSource(), ClientConfig.builder()
                .schema(database.extraSchema("alerts_bare")).logger(logger).build(), EngineEnvironment.standalone())) {
            assertThat(bare.system().alerts().list()).isEmpty();
            assertThat(bare.system().alerts().alert("metrics_collector_progress").latest()).isEmpty();
            assertThatThrownBy(() -> bare.system().alerts().alert("metrics_collector_progress").snapshot())
                    .isInstanceOfSatisfying(SqlStreamsException.class,
                            failure -> assertThat(failure.code()).isEqualTo(Code.SQL0017));
            assertThatThrownBy(() -> bare.stream("absent.orders", Order.class).alerts().list())
                    .isInstanceOfSatisfying(SqlStreamsException.class,
                            failure -> assertThat(failure.code()).isEqualTo(Code.SQL0005));
        }
    }

    @Test
    void badPoliciesAreRefusedWithSql0108AndNothingIsStored() {
        client.system().register(SystemConfig.defaults());
        SystemConfig before = client.system().get().config();

        for (SystemConfig bad : List.of(
                new SystemConfig(null, null).withAlerts(new StreamAlertConfig("every 1m", null, null, null, false),
                        null, null, null),
                new SystemConfig(null, null).withAlerts(null, new StreamAlertConfig("@every -1s", null, null, null,
                        false), null, null),
                new SystemConfig(null, null).withAlerts(null, null, new StreamAlertConfig(null, -1L, null, null,
                        false), null),
                new SystemConfig(null, null).withAlerts(null, null, null, new CollectorProgressAlertConfig(null,
                        Duration.ofSeconds(-1), null, false)),
                new SystemConfig(null, null).withFenceHeldAlert(new StreamAlertConfig(null, -1L, null, null, false)),
                new SystemConfig(Duration.ofSeconds(-1), null))) {
            assertThatThrownBy(() -> client.system().register(bad)).as(bad.toString())
                    .isInstanceOfSatisfying(InvalidConfigurationException.class,
                            failure -> assertThat(failure.code()).isEqualTo(Code.SQL0108));
        }

        assertThat(client.system().get().config()).isEqualTo(before);
    }

    @Test
    void declaredPoliciesAreStoredAndReadBack() {
        StreamAlertConfig partitions = new StreamAlertConfig("@every 30s", 500L, Duration.ofMinutes(5),
                Duration.ofMinutes(3), true);
        CollectorProgressAlertConfig progress = new CollectorProgressAlertConfig("@every 2m", Duration.ofMinutes(10),
                null, false);

        StreamAlertConfig fence = new StreamAlertConfig(null, 30L, null, Duration.ofMinutes(1), false);

        client.system().register(new SystemConfig(null, Duration.ofSeconds(10)).withAlerts(partitions, null, null,
                progress).withFenceHeldAlert(fence));

        SystemConfig stored = client.system().get().config();
        assertThat(stored.partitionCountAlert()).isEqualTo(partitions);
        assertThat(stored.fenceHeldAlert()).isEqualTo(fence);
        assertThat(stored.compactionReadCostAlert()).isEqualTo(StreamAlertConfig.defaults());
        assertThat(stored.metricCollectorProgressAlert()).isEqualTo(progress);
        assertThat(stored.metricCollectorProgressAlert().resolvedMaximumAge(Duration.ofSeconds(10)))
                .isEqualTo(Duration.ofMinutes(10));
        assertThat(CollectorProgressAlertConfig.defaults().resolvedMaximumAge(Duration.ofMinutes(1)))
                .as("three poll rates when longer than 2 min").isEqualTo(Duration.ofMinutes(3));
    }

    private StreamHandle<Order> orders(String name) {
        StreamHandle<Order> stream = client.stream(name, Order.class);
        stream.register();
        try (Producer<Order> producer = stream.producer().register()) {
            producer.produce(new Order(1));
        }
        return stream;
    }

    private static SystemConfig fastSystem(Long partitionThreshold) {
        return new SystemConfig(FAST, FAST).withAlerts(
                new StreamAlertConfig("@every 200ms", partitionThreshold, PENDING, Duration.ofSeconds(2), false),
                null, null, null);
    }

    /** Waits for the alert's first report; the states its snapshot showed before that. */
    private static Set<AlertState> statesUntilRecorded(AlertHandle alert) {
        Set<AlertState> seen = EnumSet.noneOf(AlertState.class);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
            Optional<Alert> recorded = alert.latest();
            if (recorded.isEmpty()) {
                seen.add(alert.snapshot().state());
            }
            return recorded.isPresent();
        });
        return seen;
    }

    private boolean checkRanAfter(String alert, Instant after) {
        return client.system().metrics().metric("sqlstreams.alert.check.streams_evaluated", Map.of("alert", alert))
                .latest().map(Measurement::at).filter(at -> at.isAfter(after)).isPresent();
    }

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }
}
