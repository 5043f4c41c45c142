package io.sqlstreams.engine.janitor;

import static io.sqlstreams.engine.produce.LogRows.partitionExists;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.DestroyOptions;
import io.sqlstreams.JanitorConfig;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.VacuumConfig;
import io.sqlstreams.testing.PostgresTest;

/**
 * A stream's janitor and vacuum workers on real runner threads: every wait is for a condition the runner makes
 * true (a partition dropped, a streak written to the instance row, a vacuum counted), never a fixed sleep. The
 * janitor ticks every 200 ms with a cleanup timeout of 1 s; partitions hold 10 ids, so 25 messages fill
 * partitions 0 and 1 and reach into 2, the active one.
 */
@PostgresTest
class StreamJanitorWorkerTest extends JanitorTestBase {
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final JanitorConfig QUICK = new JanitorConfig(Duration.ofMillis(200), null, Duration.ofSeconds(1),
            Duration.ofDays(1));
    private static final VacuumConfig QUICK_VACUUM = new VacuumConfig(Duration.ofMillis(200), null);

    /** Written by runner threads. */
    private final List<SqlStreamsException> endings = new CopyOnWriteArrayList<>();
    private StreamJanitorWorker.Running running;

    @AfterEach
    void stopWorkers() {
        if (running != null) {
            running.stop();
        }
    }

    /** A stream of quick maintenance with 25 messages, the first 19 two hours old. */
    private Stream expiringStream(String name) throws SQLException {
        Stream stream = stream(name, tenPerPartition().janitor(QUICK).vacuum(QUICK_VACUUM));
        produce(stream, 25);
        age(stream, 1, 19, Duration.ofHours(2));
        return stream;
    }

    private StreamJanitorWorker.Running start(Stream stream) {
        running = client.janitorWorkers().start(stream, (runner, failure) -> endings.add(failure));
        return running;
    }

    private long workerId(Stream stream, String worker) throws SQLException {
        return sql.count("SELECT id FROM {s}.worker_config WHERE stream_id = ? AND name = ?", stream.id(), worker);
    }

    private long instances(long workerId) throws SQLException {
        return sql.count("SELECT count(*) FROM {s}.worker_instance WHERE worker_id = ? AND expires_at > now()",
                workerId);
    }

    private int rowAttempts(long instanceId) throws SQLException {
        return ((Number) sql.value("SELECT attempts FROM {s}.worker_instance WHERE id = ?", instanceId)).intValue();
    }

    @Test
    void theJanitorWorkerDropsExpiredPartitionsOnItsTicksAndReleasesItsRowOnStop() throws SQLException {
        Stream stream = expiringStream("jworker.drop");
        long janitor = workerId(stream, "stream_janitor");

        StreamJanitorWorker.Running workers = start(stream);

        await().atMost(PATIENCE).until(() -> !partitionExists(database, stream.id(), 1));
        assertThat(partitionExists(database, stream.id(), 0)).isFalse();
        assertThat(partitionExists(database, stream.id(), 2)).as("the active partition").isTrue();
        assertThat(workers.janitor().holding()).isTrue();
        assertThat(instances(janitor)).as("the janitor's live instance row").isEqualTo(1);
        assertThat(logger.withCode("SQL0140")).singleElement().asString()
                .contains("stream_janitor", "jworker.drop", "poll_rate 200ms", "sweep_batch_size 1000",
                        "cleanup_timeout 1s", "partial_sweep_grace_period 24h0m0s");

        workers.stop();

        assertThat(instances(janitor)).as("released on stop").isZero();
        assertThat(workers.janitor().ended()).isTrue();
        assertThat(endings).isEmpty();
    }

    /**
     * A transaction holding partition 0 (standing in for a slow producer) makes the drop step fail: that tick
     * fails and the instance row carries the streak of 1; once the lock is gone a tick succeeds and resets it.
     */
    @Test
    void aPassWithAFailedStepIsAFailedTickAndTheNextGoodTickResetsTheStreak() throws SQLException {
        Stream stream = expiringStream("jworker.locked");

        try (Connection holder = database.dataSource().getConnection(); Statement lock = holder.createStatement()) {
            holder.setAutoCommit(false);
            lock.execute("LOCK TABLE " + database.schema() + ".message_log_" + stream.id()
                    + "_0 IN ROW EXCLUSIVE MODE");
            StreamJanitorWorker.Running workers = start(stream);
            await().atMost(PATIENCE).until(() -> workers.janitor().attempts() == 1);
            long instance = workers.janitor().instanceId().orElseThrow();
            assertThat(rowAttempts(instance)).as("the streak on the instance row").isEqualTo(1);
            assertThat(logger.withCode("SQL0139")).first().asString()
                    .contains("jworker.locked", "drop_expired_partitions");
            assertThat(partitionExists(database, stream.id(), 0)).isTrue();
            holder.rollback();
        }

        await().atMost(PATIENCE).until(() -> !partitionExists(database, stream.id(), 0));
        await().atMost(PATIENCE).until(() -> running.janitor().attempts() == 0);
        assertThat(rowAttempts(running.janitor().instanceId().orElseThrow())).isZero();
        assertThat(endings).isEmpty();
    }

    /** The vacuum worker of a new stream is suspended: its runner is declined until the target is raised. */
    @Test
    void theSuspendedVacuumWorkerIsDeclinedUntilItsTargetIsRaisedThenItVacuums() throws SQLException {
        Stream stream = stream("jworker.vacuum", tenPerPartition().janitor(QUICK).vacuum(QUICK_VACUUM));
        produce(stream, 5);
        long vacuum = workerId(stream, "stream_vacuum");
        String table = "idempotency_key_" + stream.id();
        String vacuums = "SELECT vacuum_count + analyze_count FROM pg_stat_user_tables"
                + " WHERE schemaname = ? AND relname = ?";
        long before = sql.count(vacuums, database.schema(), table);

        StreamJanitorWorker.Running workers = start(stream);
        await().atMost(PATIENCE).until(() -> logger.withCode("SQL0140").size() == 1);

        assertThat(logger.withCode("SQL0140")).singleElement().asString().contains("stream_janitor");
        assertThat(workers.vacuum().holding()).as("declined at target 0").isFalse();
        assertThat(workers.vacuum().ended()).as("still waiting to claim").isFalse();
        assertThat(instances(vacuum)).isZero();

        sql.update("UPDATE {s}.worker_config SET target_instances = 1 WHERE id = ?", vacuum);

        await().atMost(PATIENCE).until(() -> logger.withCode("SQL0140").size() == 2);
        assertThat(logger.withCode("SQL0140")).last().asString()
                .contains("stream_vacuum", "poll_rate 200ms", "vacuum_timeout 1m0s");
        assertThat(workers.vacuum().holding()).isTrue();
        assertThat(instances(vacuum)).isEqualTo(1);
        await().atMost(PATIENCE).until(() -> sql.count(vacuums, database.schema(), table) >= before + 2);
    }

    @Test
    void destroyingTheStreamEndsItsRunnersWithSql0106() throws SQLException {
        Stream stream = expiringStream("jworker.destroyed");
        StreamJanitorWorker.Running workers = start(stream);
        await().atMost(PATIENCE).until(() -> workers.janitor().holding());

        client.stream(stream.name(), Entry.class).destroy(DestroyOptions.forced());

        await().atMost(PATIENCE).until(() -> workers.janitor().ended() && workers.vacuum().ended());
        assertThat(workers.janitor().failure()).hasValueSatisfying(
                failure -> assertThat(failure.code()).isEqualTo(Code.SQL0106));
        assertThat(workers.vacuum().failure()).hasValueSatisfying(
                failure -> assertThat(failure.code()).isEqualTo(Code.SQL0106));
        assertThat(endings).hasSize(2).allMatch(failure -> failure.code() == Code.SQL0106);
        assertThat(logger.withCode("SQL0034")).as("no lost-row warning").isEmpty();
    }
}
