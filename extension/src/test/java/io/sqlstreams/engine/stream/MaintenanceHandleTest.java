package io.sqlstreams.engine.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.JanitorConfig;
import io.sqlstreams.MaintenanceHandle;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.WorkerSnapshot;
import io.sqlstreams.WorkerStatus;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.worker.WorkerInstance;
import io.sqlstreams.engine.worker.WorkerRig;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.Sql;

/** Digest §7.3: a stream's janitor and vacuum handles — status, suspend, unsuspend — against their rows. */
@PostgresTest
class MaintenanceHandleTest extends StreamTestBase {
    private Sql sql;

    @BeforeEach
    void openSql() {
        sql = new Sql(database);
    }

    private static Code codeOf(Runnable call) {
        SqlStreamsException failure = catchThrowableOfType(call::run, SqlStreamsException.class);
        assertThat(failure).as("expected a SqlStreamsException").isNotNull();
        assertThat(failure.getMessage()).startsWith(failure.code().id() + " ");
        return failure.code();
    }

    private long workerId(long streamId, String worker) throws SQLException {
        return ((Number) sql.value("SELECT id FROM {s}.worker_config WHERE stream_id = ? AND name = ?", streamId,
                worker)).longValue();
    }

    /** The targets of the worker's {@code worker_config_log} snapshots, oldest first. */
    private List<String> loggedTargets(long workerId) throws SQLException {
        return sql.strings("SELECT target_instances FROM {s}.worker_config_log WHERE worker_id = ? ORDER BY id",
                workerId);
    }

    @Test
    void aNewStreamsJanitorIsUnclaimedAndItsVacuumSuspended() {
        StreamHandle<Object> stream = client.stream("handles.new", Object.class);
        stream.register();

        WorkerSnapshot janitor = stream.janitor().status();
        WorkerSnapshot vacuum = stream.vacuum().status();

        assertThat(janitor.name()).isEqualTo("stream_janitor").isEqualTo(stream.janitor().worker());
        assertThat(janitor.status()).isEqualTo(WorkerStatus.UNCLAIMED);
        assertThat(janitor.targetInstances()).isEqualTo(1);
        assertThat(janitor.liveInstances()).isZero();
        assertThat(janitor.attempts()).isZero();
        assertThat(janitor.unclaimedFor()).as("never claimed: since the worker was created")
                .hasValueSatisfying(unclaimed -> assertThat(unclaimed).isPositive().isLessThan(Duration.ofMinutes(1)));
        assertThat(vacuum.name()).isEqualTo("stream_vacuum");
        assertThat(vacuum.status()).isEqualTo(WorkerStatus.SUSPENDED);
        assertThat(vacuum.targetInstances()).isZero();
        assertThat(vacuum.liveInstances()).isZero();
    }

    @Test
    void suspendAndUnsuspendSwitchTheTargetAndLogASnapshotPerChange() throws SQLException {
        StreamHandle<Object> stream = client.stream("handles.switch", Object.class);
        long janitorId = workerId(stream.register().id(), "stream_janitor");
        MaintenanceHandle janitor = stream.janitor();

        WorkerSnapshot suspended = janitor.suspend();
        assertThat(suspended.status()).isEqualTo(WorkerStatus.SUSPENDED);
        assertThat(suspended.targetInstances()).isZero();
        assertThat(janitor.status().status()).as("read back").isEqualTo(WorkerStatus.SUSPENDED);
        assertThat(loggedTargets(janitorId)).containsExactly("1", "0");

        assertThat(janitor.suspend().status()).as("again").isEqualTo(WorkerStatus.SUSPENDED);
        assertThat(loggedTargets(janitorId)).as("no change, no snapshot").containsExactly("1", "0");

        WorkerSnapshot unsuspended = janitor.unsuspend();
        assertThat(unsuspended.status()).isEqualTo(WorkerStatus.UNCLAIMED);
        assertThat(unsuspended.targetInstances()).isEqualTo(1);
        assertThat(loggedTargets(janitorId)).containsExactly("1", "0", "1");
        assertThat(sql.strings("SELECT DISTINCT declared_by FROM {s}.worker_config_log WHERE worker_id = ?",
                janitorId)).singleElement().asString().isNotBlank();

        WorkerSnapshot vacuum = stream.vacuum().unsuspend();
        assertThat(vacuum.status()).isEqualTo(WorkerStatus.UNCLAIMED);
        assertThat(vacuum.targetInstances()).isEqualTo(1);
        assertThat(newClient().stream("handles.switch", Object.class).vacuum().status().targetInstances())
                .as("another client reads the same row").isEqualTo(1);
    }

    @Test
    void registeringAgainKeepsAnOperatorsSwitches() throws SQLException {
        StreamHandle<Object> stream = client.stream("handles.reregister", Object.class);
        long streamId = stream.register().id();
        stream.janitor().suspend();
        stream.vacuum().unsuspend();

        stream.register();
        stream.register(StreamConfig.builder().janitor(new JanitorConfig(Duration.ofSeconds(9), null, null, null))
                .build());

        assertThat(stream.janitor().status().status()).as("a differing declaration too").isEqualTo(WorkerStatus.SUSPENDED);
        assertThat(stream.vacuum().status().targetInstances()).isEqualTo(1);
        assertThat(loggedTargets(workerId(streamId, "stream_janitor")))
                .as("the replaced document's snapshot keeps the target").containsExactly("1", "0", "0");
    }

    @Test
    void aLiveInstanceIsClaimedThenFailingThenUnclaimedOnceItExpires() throws SQLException {
        StreamHandle<Object> stream = client.stream("handles.live", Object.class);
        long janitorId = workerId(stream.register().id(), "stream_janitor");
        WorkerRig rig = new WorkerRig(database);
        WorkerInstance instance = WorkerInstance.claim(rig.engine, janitorId, "the test's janitor", WorkerRig.TTL)
                .orElseThrow();

        WorkerSnapshot claimed = stream.janitor().status();
        assertThat(claimed.status()).isEqualTo(WorkerStatus.CLAIMED);
        assertThat(claimed.liveInstances()).isEqualTo(1);
        assertThat(claimed.attempts()).isZero();
        assertThat(claimed.unclaimedFor()).isEmpty();

        instance.recordAttempts(3);
        WorkerSnapshot failing = stream.janitor().status();
        assertThat(failing.status()).isEqualTo(WorkerStatus.FAILING);
        assertThat(failing.attempts()).isEqualTo(3);
        assertThat(failing.liveInstances()).isEqualTo(1);

        WorkerSnapshot stopping = stream.janitor().suspend();
        assertThat(stopping.status()).as("suspension does not wait for running work").isEqualTo(WorkerStatus.SUSPENDED);
        assertThat(stopping.liveInstances()).isEqualTo(1);
        stream.janitor().unsuspend();

        // as an hour would have it: the worker created an hour ago, its instance expired (row and snapshots) a
        // minute ago
        sql.update("UPDATE {s}.worker_config SET created_at = now() - interval '1 hour' WHERE id = ?", janitorId);
        sql.update("UPDATE {s}.worker_instance SET expires_at = now() - interval '1 minute' WHERE id = ?",
                instance.id());
        sql.update("UPDATE {s}.worker_instance_log SET expires_at = now() - interval '1 minute'"
                + " WHERE worker_instance_id = ?", instance.id());
        WorkerSnapshot expired = stream.janitor().status();
        assertThat(expired.status()).isEqualTo(WorkerStatus.UNCLAIMED);
        assertThat(expired.liveInstances()).isZero();
        assertThat(expired.attempts()).as("only live instances' streaks count").isZero();
        assertThat(expired.unclaimedFor()).as("since the instance expired, not since the worker was created")
                .hasValueSatisfying(unclaimed -> assertThat(unclaimed).isGreaterThanOrEqualTo(Duration.ofMinutes(1))
                        .isLessThan(Duration.ofMinutes(2)));
    }

    @Test
    void aReleasedInstanceCountsAsHeldUntilItsLeaseWouldHaveExpired() throws SQLException {
        StreamHandle<Object> stream = client.stream("handles.released", Object.class);
        long janitorId = workerId(stream.register().id(), "stream_janitor");
        WorkerInstance instance = WorkerInstance.claim(new WorkerRig(database).engine, janitorId, "released",
                WorkerRig.TTL).orElseThrow();

        instance.release();

        WorkerSnapshot released = stream.janitor().status();
        assertThat(released.status()).isEqualTo(WorkerStatus.UNCLAIMED);
        assertThat(released.unclaimedFor()).contains(Duration.ZERO);
    }

    @Test
    void anUnregisteredStreamIsSql0005AndABadNameSql0109() {
        EngineClient fresh = clientOn(database.extraSchema("handles_fresh"), false);
        client.stream("handles.other", Object.class).register();

        for (StreamHandle<Object> stream : List.of(fresh.stream("handles.none", Object.class),
                client.stream("handles.none", Object.class))) {
            for (MaintenanceHandle handle : List.of(stream.janitor(), stream.vacuum())) {
                assertThat(codeOf(handle::status)).isEqualTo(Code.SQL0005);
                assertThat(codeOf(handle::suspend)).isEqualTo(Code.SQL0005);
                assertThat(codeOf(handle::unsuspend)).isEqualTo(Code.SQL0005);
            }
        }
        assertThat(codeOf(client.stream("Bad Name", Object.class).janitor()::status)).isEqualTo(Code.SQL0109);
    }

    @Test
    void aMissingWorkerRowIsSql0106UntilTheStreamIsRegisteredAgain() throws SQLException {
        StreamHandle<Object> stream = client.stream("handles.lost", Object.class);
        long streamId = stream.register().id();
        sql.update("DELETE FROM {s}.worker_config WHERE stream_id = ? AND name = 'stream_vacuum'", streamId);

        assertThat(codeOf(stream.vacuum()::status)).isEqualTo(Code.SQL0106);
        assertThat(codeOf(stream.vacuum()::suspend)).isEqualTo(Code.SQL0106);
        assertThat(stream.janitor().status().status()).isEqualTo(WorkerStatus.UNCLAIMED);

        stream.register();
        assertThat(stream.vacuum().status().status()).as("declared again, suspended as new")
                .isEqualTo(WorkerStatus.SUSPENDED);
        assertThat(stream.vacuum().status().targetInstances()).isZero();
    }
}
