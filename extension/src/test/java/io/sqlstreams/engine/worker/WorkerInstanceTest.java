package io.sqlstreams.engine.worker;

import static io.sqlstreams.engine.worker.WorkerRig.TTL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.worker.WorkerInstance.Heartbeat;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.TestDatabase;

/** Digest §7.1: claiming a worker's instance rows under its target, renewing them by token, releasing them. */
@PostgresTest
class WorkerInstanceTest {
    private WorkerRig rig;

    @BeforeEach
    void setUp(TestDatabase database) {
        rig = new WorkerRig(database);
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
