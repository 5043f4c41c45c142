package io.sqlstreams.jakarta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;
import org.eclipse.microprofile.health.Startup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.DestroyOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.Schedule;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.jakarta.beans.BrokenObservers;
import io.sqlstreams.jakarta.beans.Payment;
import io.sqlstreams.jakarta.beans.PaymentObservers;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;

/**
 * The portable extension in Weld SE on a real PostgreSQL: the observer is found and run by its group's session on
 * the managed executor, its outcomes map to the delivery's, the declaration comes from MicroProfile Config, every
 * deployment problem is reported at once, and health follows the session.
 */
@PostgresTest
class ConsumerGroupExtensionTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String GROUP_KEY = "sqlstreams.groups.\"charge-cards\".";
    private static final Map<String, String> FAST_GROUP = Map.of(
            GROUP_KEY + "message.timeout", "7s",
            GROUP_KEY + "message.retry.max-retries", "3",
            GROUP_KEY + "message.retry.base-delay", "100ms",
            GROUP_KEY + "exception-initial-backoff", "100ms",
            GROUP_KEY + "claim-poll-rate", "50ms",
            GROUP_KEY + "instance-ttl", "2s");

    private TestDatabase database;
    private EngineClient client;
    private StreamHandle<Payment> stream;

    @BeforeEach
    void registerStream(TestDatabase database) {
        this.database = database;
        this.client = EngineFixtures.client(database, new RecordingLogger());
        this.stream = client.stream("payments.requested", Payment.class);
        PaymentObservers.RUNS.clear();
    }

    @AfterEach
    void destroyStream() {
        stream.get().ifPresent(registered -> stream.destroy(DestroyOptions.forced()));
    }

    @Test
    void theObserverRunsOnTheManagedExecutorAndItsOutcomeIsTheDeliverys() throws Exception {
        try (CdiContainer container = CdiContainer.start(database, FAST_GROUP, PaymentObservers.class)) {
            assertThat(stream.get()).as("the consuming application registered the stream nobody had").isPresent();
            Producer<Payment> producer = stream.producer().register();
            for (String behaviour : List.of("ok", "terminal", "delay", "fail-once")) {
                producer.produce(new Payment("order-" + behaviour, behaviour));
            }
            ConsumerHandle<Payment> group = stream.consumer("charge-cards");

            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(runsOf("ok")).isEqualTo(1);
                assertThat(runsOf("terminal")).isEqualTo(1);
                assertThat(runsOf("delay")).isEqualTo(2);
                assertThat(runsOf("fail-once")).isEqualTo(2);
                assertThat(group.inspect().dead()).as("the terminal outcome dead-lettered its message").isEqualTo(1);
            });
            assertThat(PaymentObservers.RUNS).allSatisfy(run -> {
                assertThat(run.thread()).startsWith(TestResources.HANDLER_THREAD_PREFIX);
                assertThat(run.meta().group()).isEqualTo("charge-cards");
                assertThat(run.meta().stream()).isEqualTo("payments.requested");
            });
            assertThat(group.inspect().declaredConfig().message().timeout())
                    .as("the declaration came from MicroProfile Config").isEqualTo(Duration.ofSeconds(7));
        }
    }

    @Test
    void aRedeploymentWithAnotherRetryBudgetReplacesTheStoredDeclarationAndLogsSql0059() throws Exception {
        CdiContainer.start(database, FAST_GROUP, PaymentObservers.class).close();
        Map<String, String> moreRetries = new HashMap<>(FAST_GROUP);
        moreRetries.put(GROUP_KEY + "message.retry.max-retries", "7");
        try (LogCapture log = new LogCapture();
             CdiContainer redeployed = CdiContainer.start(database, moreRetries, PaymentObservers.class)) {
            assertThat(stream.consumer("charge-cards").inspect().declaredConfig().message().retry().maxRetries())
                    .isEqualTo(7);
            assertThat(log.lines()).anySatisfy(line -> assertThat(line).startsWith("SQL0059").contains("max_retries"));
        }
    }

    @Test
    void aScheduleDeclaredInTheApplicationsPropertiesIsRegisteredAndReachesItsObserverWithScheduledAt()
            throws Exception {
        String schedule = "sqlstreams.schedules.\"payment-sweep\".";
        Map<String, String> properties = new HashMap<>(FAST_GROUP);
        properties.put(schedule + "stream", "payments.requested");
        properties.put(schedule + "expression", "@hourly");
        properties.put(schedule + "payload-type", Payment.class.getName());
        properties.put(schedule + "payload", "{\"order\": \"sweep\", \"behaviour\": \"ok\"}");
        properties.put(schedule + "concurrency", "exclusive");
        try (CdiContainer container = CdiContainer.start(database, properties, PaymentObservers.class)) {
            Schedule registered = client.scheduler("payment-sweep").get();
            assertThat(registered.stream()).isEqualTo("payments.requested");
            assertThat(registered.expression()).isEqualTo("@hourly");
            assertThat(registered.config().resolvedConcurrency()).isEqualTo(Concurrency.EXCLUSIVE);

            client.scheduler("payment-sweep").run(null);

            await().atMost(WAIT).untilAsserted(() -> assertThat(runsOf("ok")).isEqualTo(1));
            PaymentObservers.Run run = PaymentObservers.RUNS.get(0);
            assertThat(run.payment()).isEqualTo(new Payment("sweep", "ok"));
            assertThat(run.meta().messageKey()).isEqualTo("payment-sweep");
            assertThat(run.meta().options().scheduledAt()).as("set by the schedule").isNotNull();
            assertThat(run.meta().scheduledAt()).isEqualTo(run.meta().options().scheduledAt());
        }
    }

    @Test
    void everyDeploymentProblemIsReportedAtOnceWithItsCode() {
        Map<String, String> badTimeout = Map.of(GROUP_KEY + "message.timeout", "10x");

        assertThatThrownBy(() -> CdiContainer.start(database, badTimeout, PaymentObservers.class,
                BrokenObservers.class).close())
                .hasMessageContaining("SQL0134 payload " + BrokenObservers.Unversioned.class.getName())
                .hasMessageContaining("has no @SchemaVersion")
                .hasMessageContaining("SQL0136 group \"charge-cards\" on stream \"payments.requested\"")
                .hasMessageContaining("is observed twice")
                .hasMessageContaining("SQL0133 the observer of group \"lists\" on stream \"audit\" observes"
                        + " java.util.List<java.lang.String>")
                .hasMessageContaining("SQL0108 " + GROUP_KEY + "message.timeout: '10x'");
        assertThat(stream.get()).as("nothing was registered").isEmpty();
    }

    @Test
    void aDataSourceNameThatNamesNothingFailsTheStartWithItsCode() {
        Map<String, String> missing = Map.of("sqlstreams.datasource", "jdbc/missing");

        assertThatThrownBy(() -> CdiContainer.start(database, missing, PaymentObservers.class).close())
                .hasStackTraceContaining("SQL0138 sqlstreams.datasource: no data source is bound at JNDI name"
                        + " jdbc/missing");
        assertThat(stream.get()).as("nothing was registered").isEmpty();
    }

    /** Issue 13 §6.3, on the server: lost instance rows are claimed afresh by the same session, no restart. */
    @Test
    void aSessionThatLostItsInstanceRowsClaimsFreshOnesAndGoesOnDelivering() throws Exception {
        try (LogCapture log = new LogCapture();
             CdiContainer container = CdiContainer.start(database, FAST_GROUP, PaymentObservers.class)) {
            HealthCheck liveness = container.select(HealthCheck.class, Liveness.Literal.INSTANCE);
            HealthCheck readiness = container.select(HealthCheck.class, Readiness.Literal.INSTANCE);
            Sql sql = new Sql(database);
            String groupRows = " FROM {s}.worker_instance WHERE worker_id IN (SELECT id FROM {s}.worker_config"
                    + " WHERE consumer_group_id IS NOT NULL AND name IN ('message_consumer', 'exception_consumer'))";
            List<String> before = sql.strings("SELECT id::text" + groupRows);

            assertThat(sql.update("DELETE" + groupRows)).as("the session's instance rows removed").isEqualTo(2);

            await().atMost(WAIT).untilAsserted(() -> assertThat(log.withCode("SQL0114")).hasSize(2));
            assertThat(sql.strings("SELECT id::text" + groupRows + " AND expires_at > now()"))
                    .as("fresh live rows").hasSize(2).doesNotContainAnyElementsOf(before);
            assertThat(readiness.call().getData().orElseThrow())
                    .containsEntry("payments.requested/charge-cards", "running");
            assertThat(liveness.call().getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
            stream.producer().register().produce(new Payment("order-after-the-loss", "ok"));
            await().atMost(WAIT).untilAsserted(() -> assertThat(runsOf("ok")).isEqualTo(1));
            assertThat(readiness.call().getData().orElseThrow()).as("the same session went on")
                    .containsEntry("payments.requested/charge-cards", "running");
            assertThat(log.withCode("SQL0012")).isEmpty();
        }
    }

    /** Issue 18: a paused group is reported paused, not down, and delivers again once resumed. */
    @Test
    void aPausedGroupIsReportedPausedNotDownAndDeliversWhenResumed() throws Exception {
        Map<String, String> quickRefresh = new HashMap<>(FAST_GROUP);
        quickRefresh.put(GROUP_KEY + "config-refresh-interval", "200ms");
        try (CdiContainer container = CdiContainer.start(database, quickRefresh, PaymentObservers.class)) {
            HealthCheck liveness = container.select(HealthCheck.class, Liveness.Literal.INSTANCE);
            HealthCheck readiness = container.select(HealthCheck.class, Readiness.Literal.INSTANCE);
            await().atMost(WAIT).untilAsserted(() -> assertThat(readiness.call().getData().orElseThrow())
                    .containsEntry("payments.requested/charge-cards", "running"));

            stream.consumer("charge-cards").pause("ops");

            await().atMost(WAIT).untilAsserted(() -> assertThat(readiness.call().getData().orElseThrow())
                    .containsEntry("payments.requested/charge-cards", "paused: paused by an operator"));
            assertThat(readiness.call().getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
            assertThat(liveness.call().getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
            stream.producer().register().produce(new Payment("order-while-paused", "ok"));
            stream.consumer("charge-cards").resume("ops");
            await().atMost(WAIT).untilAsserted(() -> assertThat(runsOf("ok")).isEqualTo(1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(readiness.call().getData().orElseThrow())
                    .containsEntry("payments.requested/charge-cards", "running"));
        }
    }

    /**
     * The loop policy under the server's supervisor: each loop of the running session in turn is interrupted;
     * the session fails with SQL0113, readiness says so while liveness stays UP, and the supervisor restarts it.
     */
    @Test
    void aSessionWhoseLoopIsInterruptedFailsWithItsCodeAndIsRestarted() throws Exception {
        try (CdiContainer container = CdiContainer.start(database, FAST_GROUP, PaymentObservers.class)) {
            HealthCheck liveness = container.select(HealthCheck.class, Liveness.Literal.INSTANCE);
            HealthCheck readiness = container.select(HealthCheck.class, Readiness.Literal.INSTANCE);
            Set<String> failedSessions = new HashSet<>();
            int restarts = 0;
            for (String role : List.of("claim", "dispatch", "exceptions", "heartbeat", "refresh")) {
                String prefix = "sqlstreams-" + role + "-charge-cards-";
                Thread loop = await().atMost(WAIT).until(() -> Thread.getAllStackTraces().keySet().stream()
                        .filter(thread -> thread.isAlive() && thread.getName().startsWith(prefix)
                                && !failedSessions.contains(thread.getName().substring(prefix.length())))
                        .findFirst().orElse(null), Objects::nonNull);
                failedSessions.add(loop.getName().substring(prefix.length()));

                loop.interrupt();

                await().atMost(WAIT).untilAsserted(() -> assertThat(readiness.call().getData().orElseThrow()
                        .get("payments.requested/charge-cards").toString()).startsWith("restarting")
                        .contains("SQL0113").contains(loop.getName()));
                assertThat(liveness.call().getStatus()).as("a restarting session is alive")
                        .isEqualTo(HealthCheckResponse.Status.UP);
                String running = "running (restarts " + ++restarts + ")";
                await().atMost(WAIT).untilAsserted(() -> assertThat(readiness.call().getData().orElseThrow())
                        .containsEntry("payments.requested/charge-cards", running));
            }
            stream.producer().register().produce(new Payment("order-after-the-restarts", "ok"));
            await().atMost(WAIT).untilAsserted(() -> assertThat(runsOf("ok")).isEqualTo(1));
        }
    }

    /**
     * Another transaction holds the instance rows locked, so the heartbeat hangs: past InstanceTTL the group is
     * stalled and liveness is DOWN; once the lock goes the same session renews, or claims its rows afresh, and
     * runs on without a restart.
     */
    @Test
    void aHeartbeatOlderThanTheInstanceTtlTakesLivenessDownUntilTheSessionRecovers() throws Exception {
        try (CdiContainer container = CdiContainer.start(database, FAST_GROUP, PaymentObservers.class)) {
            HealthCheck liveness = container.select(HealthCheck.class, Liveness.Literal.INSTANCE);
            try (Connection locker = database.dataSource().getConnection()) {
                locker.setAutoCommit(false);
                try (Statement lock = locker.createStatement()) {
                    lock.execute("SELECT * FROM " + database.schema() + ".worker_instance FOR UPDATE");
                }
                await().atMost(WAIT).untilAsserted(() -> {
                    HealthCheckResponse live = liveness.call();
                    assertThat(live.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
                    assertThat(live.getData().orElseThrow().get("payments.requested/charge-cards").toString())
                            .startsWith("stalled: no heartbeat for ");
                });
                locker.rollback();
            }
            await().atMost(WAIT).untilAsserted(() -> {
                HealthCheckResponse live = liveness.call();
                assertThat(live.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
                assertThat(live.getData().orElseThrow()).containsEntry("payments.requested/charge-cards",
                        "running");
            });
        }
    }

    @Test
    void beforeTheSessionsRunEveryCheckSaysNotStarted() throws Exception {
        try (CdiContainer container = CdiContainer.start(database, FAST_GROUP, PaymentObservers.class)) {
            SqlStreamsRuntime notYetStarted = new SqlStreamsRuntime();
            notYetStarted.discovery = container.select(Discovery.class);
            notYetStarted.resources = container.select(ContainerResources.class);
            SqlStreamsReadiness readiness = new SqlStreamsReadiness();
            readiness.runtime = notYetStarted;
            SqlStreamsStartup startup = new SqlStreamsStartup();
            startup.runtime = notYetStarted;
            SqlStreamsLiveness liveness = new SqlStreamsLiveness();
            liveness.runtime = notYetStarted;

            for (HealthCheck check : List.<HealthCheck>of(readiness, startup)) {
                HealthCheckResponse response = check.call();
                assertThat(response.getStatus()).as(response.getName()).isEqualTo(HealthCheckResponse.Status.DOWN);
                assertThat(response.getData().orElseThrow()).containsEntry("payments.requested/charge-cards",
                        "not started");
            }
            assertThat(liveness.call().getStatus()).as("not started is not dead")
                    .isEqualTo(HealthCheckResponse.Status.UP);
        }
    }

    @Test
    void healthFollowsTheSessionAndLivenessGoesDownWhenItDiesForGood() throws Exception {
        try (CdiContainer container = CdiContainer.start(database, FAST_GROUP, PaymentObservers.class)) {
            HealthCheck liveness = container.select(HealthCheck.class, Liveness.Literal.INSTANCE);
            HealthCheck readiness = container.select(HealthCheck.class, Readiness.Literal.INSTANCE);
            HealthCheck startup = container.select(HealthCheck.class, Startup.Literal.INSTANCE);
            for (HealthCheck check : List.of(liveness, readiness, startup)) {
                HealthCheckResponse response = check.call();
                assertThat(response.getStatus()).as(response.getName()).isEqualTo(HealthCheckResponse.Status.UP);
                assertThat(response.getData().orElseThrow()).containsEntry("payments.requested/charge-cards",
                        "running");
            }

            stream.consumer("charge-cards").destroy(DestroyOptions.forced());

            await().atMost(WAIT).untilAsserted(() -> {
                HealthCheckResponse live = liveness.call();
                assertThat(live.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
                assertThat(live.getData().orElseThrow().get("payments.requested/charge-cards").toString())
                        .startsWith("failed: ").contains("SQL0014");
            });
            assertThat(readiness.call().getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
        }
    }

    @Test
    void whatStopsBeforeTheSessionsRunsWhileTheyStillDoThenTheSessionsDrain() throws Exception {
        List<String> seenAtStop = new CopyOnWriteArrayList<>();
        try (CdiContainer container = CdiContainer.start(database, FAST_GROUP, PaymentObservers.class)) {
            SqlStreamsRuntime runtime = container.select(SqlStreamsRuntime.class);
            await().atMost(WAIT).until(() -> runtime.states().values().stream()
                    .allMatch(state -> state.status() == GroupState.Status.RUNNING));
            runtime.beforeSessionsStop(() -> runtime.states().values()
                    .forEach(state -> seenAtStop.add(state.status().name())));

            runtime.stop();

            assertThat(seenAtStop).as("the group's state when the registered stop ran").containsExactly("RUNNING");
            assertThat(runtime.states().values()).allSatisfy(state ->
                    assertThat(state.status()).isNotEqualTo(GroupState.Status.RUNNING));
            runtime.stop();
            assertThat(seenAtStop).as("a registered stop runs once").hasSize(1);
        }
    }

    private static long runsOf(String behaviour) {
        return PaymentObservers.RUNS.stream().filter(run -> run.payment().behaviour().equals(behaviour)).count();
    }
}
