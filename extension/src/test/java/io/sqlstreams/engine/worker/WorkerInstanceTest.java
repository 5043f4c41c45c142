package io.sqlstreams.engine.worker;

import static io.sqlstreams.engine.worker.WorkerRig.TTL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.query.InstanceQueries;
import io.sqlstreams.engine.worker.WorkerInstance.Heartbeat;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.TestDatabase;

/** Digest §7.1: claiming a worker's instance rows under its target, renewing them by token, releasing them. */
@PostgresTest
class WorkerInstanceTest {
    private final ExecutorService background = Executors.newSingleThreadExecutor();
    private final List<Connection> opened = new ArrayList<>();
    private WorkerRig rig;

    @BeforeEach
    void setUp(TestDatabase database) {
        rig = new WorkerRig(database);
    }

    @AfterEach
    void closeOpened() throws SQLException {
        background.shutdownNow();
        for (Connection connection : opened) {
            connection.close();
        }
    }

    private Optional<WorkerInstance> claim(long workerId) {
        return WorkerInstance.claim(rig.engine, workerId, "worker " + workerId, TTL);
    }

    @Test
    void aTargetOfOneAdmitsOneInstanceAndDeclinesTheNext() throws Exception {
        long worker = rig.worker("claim.one", 1);

        Optional<WorkerInstance> first = claim(worker);
        Optional<WorkerInstance> second = claim(worker);

        assertThat(first).isPresent();
        assertThat(second).as("declined at the target, not an error").isEmpty();
        assertThat(rig.liveInstances(worker)).isEqualTo(1);
        assertThat(rig.loggedAttempts(first.get().id())).as("the claim's snapshot").containsExactly(0);
    }

    @Test
    void anUnboundedTargetAdmitsEveryInstance() throws Exception {
        long worker = rig.worker("claim.every", -1);

        List<Optional<WorkerInstance>> claims = IntStream.range(0, 3).mapToObj(n -> claim(worker)).toList();

        assertThat(claims).allSatisfy(claim -> assertThat(claim).isPresent());
        assertThat(rig.liveInstances(worker)).isEqualTo(3);
    }

    @Test
    void aSuspendedWorkerDeclinesEveryClaim() throws Exception {
        long worker = rig.worker("claim.suspended", 0);

        Optional<WorkerInstance.Attempt> attempt = WorkerInstance.attempt(rig.engine, worker, "suspended", TTL);

        assertThat(attempt).hasValueSatisfying(declined -> {
            assertThat(declined.instance()).isEmpty();
            assertThat(declined.targetInstances()).isZero();
        });
        assertThat(rig.instances(worker)).isZero();
    }

    @Test
    void aWorkerWithoutItsRowIsSql0106() {
        long missing = Long.MAX_VALUE;

        assertThat(WorkerInstance.attempt(rig.engine, missing, "missing", TTL)).isEmpty();
        assertThatThrownBy(() -> claim(missing)).isInstanceOfSatisfying(SqlStreamsException.class,
                failure -> assertThat(failure.code()).isEqualTo(Code.SQL0106));
    }

    @Test
    void anExpiredInstanceNoLongerCountsAgainstTheTarget() throws Exception {
        long worker = rig.worker("claim.after.expiry", 1);
        WorkerInstance expired = claim(worker).orElseThrow();
        rig.expire(expired.id());

        assertThat(claim(worker)).isPresent();
        assertThat(rig.liveInstances(worker)).isEqualTo(1);
    }

    @Test
    void aRenewalExtendsTheRowAndAppendsASnapshotWithTheStreak() throws Exception {
        long worker = rig.worker("renew.live", 1);
        WorkerInstance instance = claim(worker).orElseThrow();
        Instant claimedUntil = expiry(instance);
        instance.recordAttempts(2);

        assertThat(instance.renew()).isEqualTo(Heartbeat.RENEWED);

        assertThat(expiry(instance)).isAfter(claimedUntil);
        assertThat(rig.rowAttempts(instance.id())).isEqualTo(2);
        assertThat(rig.loggedAttempts(instance.id())).containsExactly(0, 2);
    }

    @Test
    void anExpiredRowIsLostAndNotRenewed() throws Exception {
        long worker = rig.worker("renew.expired", 1);
        WorkerInstance instance = claim(worker).orElseThrow();
        rig.expire(instance.id());

        assertThat(instance.renew()).isEqualTo(Heartbeat.LOST);

        assertThat(rig.liveInstances(worker)).isZero();
        assertThat(rig.loggedAttempts(instance.id())).as("only the claim's snapshot").hasSize(1);
    }

    /*
     * The race of a late renewal with a claim: the renewal's transaction began before its row expired, the claim's
     * after. Whichever locks the worker row first, one holder is left.
     */
    @Test
    void aLateRenewalThatLocksFirstMakesTheClaimDecline(TestDatabase database) throws Exception {
        long worker = rig.worker("renew.first", 1);
        InstanceQueries.Instance holder = expiringSoon(claim(worker).orElseThrow());
        Connection renewal = opened(transaction(database));
        assertThat(queries().renew(renewal, holder, TTL, 0).renewed()).isTrue();
        awaitExpiry(worker);

        Future<Optional<InstanceQueries.Claim>> claim = background.submit(() -> {
            try (Connection claimant = transaction(database)) {
                Optional<InstanceQueries.Claim> claimed = queries().claim(claimant, worker, TTL);
                claimant.commit();
                return claimed;
            }
        });
        awaitLockWaits(1);
        renewal.commit();

        assertThat(claim.get(10, TimeUnit.SECONDS)).hasValueSatisfying(c ->
                assertThat(c.instance()).as("declined: the renewed row is live").isEmpty());
        assertThat(rig.instances(worker)).isEqualTo(1);
    }

    @Test
    void aLateRenewalThatWaitedForAClaimOfItsExpiredRowIsLost(TestDatabase database) throws Exception {
        long worker = rig.worker("renew.second", 1);
        InstanceQueries.Instance holder = expiringSoon(claim(worker).orElseThrow());
        Connection renewal = opened(transaction(database));
        awaitExpiry(worker);
        Connection claimant = opened(transaction(database));
        assertThat(queries().claim(claimant, worker, TTL)).hasValueSatisfying(c ->
                assertThat(c.instance()).as("claimed: the holder's row expired").isPresent());

        Future<InstanceQueries.Renewal> renewed = background.submit(() -> queries().renew(renewal, holder, TTL, 0));
        awaitLockWaits(1);
        claimant.commit();

        assertThat(renewed.get(10, TimeUnit.SECONDS).renewed()).as("lost to the claim").isFalse();
        renewal.commit();
        assertThat(rig.liveInstances(worker)).as("only the claimant's").isEqualTo(1);
    }

    private Connection opened(Connection connection) {
        opened.add(connection);
        return connection;
    }

    private void awaitExpiry(long worker) {
        await().atMost(Duration.ofSeconds(10)).until(() -> rig.liveInstances(worker) == 0);
    }

    private InstanceQueries queries() {
        return new InstanceQueries(rig.engine.sql());
    }

    /** The instance's row and token, its expiry moved to 2 s from now. */
    private InstanceQueries.Instance expiringSoon(WorkerInstance instance) throws SQLException {
        rig.sql.update("UPDATE {s}.worker_instance SET expires_at = clock_timestamp() + interval '2 seconds'"
                + " WHERE id = ?", instance.id());
        return new InstanceQueries.Instance(instance.id(), (String) rig.sql.value(
                "SELECT token::text FROM {s}.worker_instance WHERE id = ?", instance.id()));
    }

    /** A connection in a transaction that has begun (its {@code now()} is fixed from here on). */
    private static Connection transaction(TestDatabase database) throws SQLException {
        Connection connection = database.dataSource().getConnection();
        connection.setAutoCommit(false);
        try (PreparedStatement begin = connection.prepareStatement("SELECT now()")) {
            begin.executeQuery().close();
        }
        return connection;
    }

    /** Waits until {@code waiting} statements on this class's worker rows wait for a lock. */
    private void awaitLockWaits(int waiting) {
        await().atMost(Duration.ofSeconds(10)).until(() -> rig.sql.count("SELECT count(*) FROM pg_stat_activity"
                + " WHERE wait_event_type = 'Lock' AND query LIKE '%{s}.worker_config%'") == waiting);
    }

    @Test
    void aRenewalAfterSuspensionSaysSo() throws Exception {
        long worker = rig.worker("renew.suspended", 1);
        WorkerInstance instance = claim(worker).orElseThrow();
        rig.setTarget(worker, 0);

        assertThat(instance.renew()).isEqualTo(Heartbeat.SUSPENDED);
    }

    @Test
    void releaseDeletesTheRowAndKeepsItsLog() throws Exception {
        long worker = rig.worker("release", 1);
        WorkerInstance instance = claim(worker).orElseThrow();

        instance.release();

        assertThat(rig.instances(worker)).isZero();
        assertThat(rig.loggedAttempts(instance.id())).hasSize(1);
        assertThat(claim(worker)).as("a replacement claims at once").isPresent();
    }

    private Instant expiry(WorkerInstance instance) throws Exception {
        return ((Timestamp) rig.sql.value("SELECT expires_at FROM {s}.worker_instance WHERE id = ?",
                instance.id())).toInstant();
    }
}
