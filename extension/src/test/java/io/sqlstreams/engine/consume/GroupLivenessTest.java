package io.sqlstreams.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Worker;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.testing.PostgresTest;

/**
 * A group's worker liveness against a real PostgreSQL (digest §7.1): a session holds one {@code worker_instance}
 * row per group worker (the group's only session also holds its {@code cursor_advancer}), renews it every
 * InstanceTTL/2 and deletes it on close; {@code workers()} counts it; a suspended worker (target 0) refuses a
 * session with SQL0107.
 */
@PostgresTest
class GroupLivenessTest extends GroupTestBase {
    /** {@code fastSession()}'s InstanceTTL: rows expire 2 s after their last heartbeat, renewed every second. */
    private static final Duration INSTANCE_TTL = Duration.ofSeconds(2);

    @Test
    void aRunningSessionHoldsOneRenewedInstancePerWorkerAndReleasesThemOnClose() throws Exception {
        ConsumerHandle<Numbered> handle = registeredGroup("live.session", "heartbeat");
        long groupId = groupId(handle);
        try (ConsumerSession session = idleSession(handle)) {
            await("the session's fleet claimed the group's cursor_advancer").atMost(WAIT)
                    .until(() -> probe.instances(groupId).size() == 3);
            assertThat(handle.workers()).extracting(Worker::name, Worker::liveInstances)
                    .containsExactly(Tuple.tuple("cursor_advancer", 1), Tuple.tuple("exception_consumer", 1),
                            Tuple.tuple("message_consumer", 1));
            List<List<String>> claimed = probe.instances(groupId);
            assertThat(claimed).extracting(row -> row.get(0)).containsExactlyElementsOf(GroupProbe.ALL_WORKER_NAMES);
            assertThat(probe.bool("SELECT bool_and(i.expires_at > now() AND i.expires_at <= now() + ? * interval"
                    + " '1 millisecond') FROM {s}.worker_instance i JOIN {s}.worker_config w"
                    + " ON w.id = i.worker_id WHERE w.consumer_group_id = ?", INSTANCE_TTL.toMillis(), groupId))
                    .as("expires_at within one InstanceTTL from now: %s", claimed).isTrue();

            Map<String, Long> firstExpiry = expiryById(claimed);
            await().atMost(WAIT).untilAsserted(() -> {
                Map<String, Long> renewed = expiryById(probe.instances(groupId));
                assertThat(renewed.keySet()).as("the same rows, renewed in place").isEqualTo(firstExpiry.keySet());
                assertThat(renewed).allSatisfy((id, expiry) ->
                        assertThat(expiry).as("expires_at of instance %s", id).isGreaterThan(firstExpiry.get(id)));
            });
            assertThat(session.isRunning()).isTrue();
        }

        assertThat(probe.instances(groupId)).as("released at once on close").isEmpty();
        assertThat(handle.workers()).extracting(Worker::liveInstances).containsOnly(0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"message_consumer", "exception_consumer"})
    void aSuspendedWorkerRefusesToStartASession(String suspended) throws SQLException, InterruptedException {
        ConsumerHandle<Numbered> handle = registeredGroup("live.suspended", "paused-" + suspended.replace('_', '-'));
        long groupId = groupId(handle);
        ConsumerInstance<Numbered> instance = handle.register();
        probe.update("UPDATE {s}.worker_config SET target_instances = 0 WHERE consumer_group_id = ? AND name = ?",
                groupId, suspended);

        SqlStreamsException refused = catchThrowableOfType(SqlStreamsException.class,
                () -> instance.start(message -> { }, ConsumeFixtures.fastSession().build()));

        assertThat(refused).isNotNull();
        assertThat(refused.code()).isEqualTo(Code.SQL0107);
        assertThat(refused.getMessage()).contains(suspended);
        assertThat(probe.instances(groupId)).as("no liveness row is left behind").isEmpty();

        handle.register(ConsumerConfig.builder().maxRangeReclaims(9).build());
        assertThat(handle.workers()).filteredOn(worker -> worker.name().equals(suspended))
                .extracting(Worker::targetInstances).as("a redeclaration keeps the suspension").containsExactly(0);

        probe.update("UPDATE {s}.worker_config SET target_instances = -1 WHERE consumer_group_id = ? AND name = ?",
                groupId, suspended);
        try (ConsumerSession session = instance.start(message -> { }, ConsumeFixtures.fastSession().build())) {
            assertThat(session.awaitStarted(WAIT)).as("the same instance starts once unsuspended").isTrue();
            await("the session holds its liveness rows and the group's cursor_advancer").atMost(WAIT)
                    .untilAsserted(() -> assertThat(probe.instances(groupId)).extracting(row -> row.get(0))
                            .containsExactlyElementsOf(GroupProbe.ALL_WORKER_NAMES));
        }
    }

    @Test
    void aRunningSessionStopsWithSQL0107WhenItsWorkerIsSuspended() throws Exception {
        ConsumerHandle<Numbered> handle = registeredGroup("live.suspend-running", "suspended-later");
        long groupId = groupId(handle);
        try (ConsumerSession session = idleSession(handle)) {
            probe.update("UPDATE {s}.worker_config SET target_instances = 0 WHERE consumer_group_id = ?"
                    + " AND name = 'message_consumer'", groupId);

            await("the session stops at its next heartbeat").atMost(WAIT).until(() -> !session.isRunning());
            assertThat(session.failure()).get().isInstanceOfSatisfying(SqlStreamsException.class, failure ->
                    assertThat(failure.code()).as("digest §7.1: SQL0107 is the error a running execution sees on"
                            + " suspension; got %s", failure.getMessage()).isEqualTo(Code.SQL0107));
        }
        assertThat(probe.instances(groupId)).isEmpty();
    }

    // ---- helpers ----

    /** A started session of the group that ignores every message, its instance rows living {@link #INSTANCE_TTL}. */
    private static ConsumerSession idleSession(ConsumerHandle<Numbered> handle) throws InterruptedException {
        return started(handle.register().start(message -> { },
                ConsumeFixtures.fastSession().instanceTtl(INSTANCE_TTL).build()));
    }

    /** Instance id to expires_at (epoch microseconds), from {@link GroupProbe#instances}. */
    private static Map<String, Long> expiryById(List<List<String>> instances) {
        return instances.stream().collect(Collectors.toMap(row -> row.get(1), row -> Long.parseLong(row.get(2))));
    }
}
