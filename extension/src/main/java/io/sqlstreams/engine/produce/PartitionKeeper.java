package io.sqlstreams.engine.produce;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.DdlLockTimeout;
import io.sqlstreams.engine.query.StreamQueries;
import io.sqlstreams.engine.sql.DatabaseFailures;

/**
 * Keeps partitions of one stream's log ahead of its producers. After an insert reaches 80 % of its partition,
 * the next partition is created in the background (retried after every later insert until it exists; a
 * failure logs SQL0033). An insert that finds no partition for its ids creates the partitions the retry will
 * need (SQL0057). Partition DDL runs under the DDL lock timeout and an advisory lock per partition, so one
 * creator runs at a time.
 */
final class PartitionKeeper implements AutoCloseable {
    private static final int HEAL_SPAN = 256;
    private static final int MAX_PARTITIONS_PER_HEAL = 64;

    private final Engine engine;
    private final StreamQueries streams;
    private final DdlLockTimeout ddlLockTimeout;
    private final long streamId;
    private final String streamName;
    private final long partitionSize;
    private final AtomicLong highestKnown = new AtomicLong(0);
    private final AtomicBoolean aheadInFlight = new AtomicBoolean();
    private ExecutorService background;

    PartitionKeeper(Engine engine, long streamId, String streamName, long partitionSize) {
        this.engine = engine;
        this.streams = new StreamQueries(engine.sql());
        this.ddlLockTimeout = new DdlLockTimeout(engine.sql());
        this.streamId = streamId;
        this.streamName = streamName;
        this.partitionSize = partitionSize;
    }

    /** Called after every successful insert with the highest id written. */
    void afterInsert(long highestId) {
        long partition = highestId / partitionSize;
        long offset = highestId % partitionSize;
        if (offset * 5 < partitionSize * 4 || partition + 1 <= highestKnown.get()) {
            return;
        }
        if (aheadInFlight.compareAndSet(false, true)) {
            try {
                background().execute(() -> createAhead(partition + 1));
            } catch (RejectedExecutionException closed) {
                aheadInFlight.set(false);
            }
        }
    }

    /**
     * An insert of {@code count} messages found no partition: creates, in a transaction of its own, every
     * partition the next {@code count} ids of the sequence fall into. SQL0018 when that fails.
     */
    void heal(int count) {
        announceHeal();
        try {
            engine.database().inTransaction("creating a missing partition of stream \"" + streamName + "\"",
                    connection -> {
                        ddlLockTimeout.apply(connection);
                        createCovering(connection, count);
                        return null;
                    });
        } catch (SqlStreamsException failure) {
            throw cannotCreate(failure);
        }
    }

    /**
     * {@link #heal} inside the caller's transaction on {@code connection}: that transaction already holds a
     * lock on the log that partition DDL on another connection would wait for. Runs under a savepoint with the
     * DDL lock timeout, the caller's restored afterwards; the new partition commits (or rolls back) with the caller.
     */
    void healInside(Connection connection, int count) {
        announceHeal();
        try {
            Savepoint savepoint = connection.setSavepoint();
            try {
                ddlLockTimeout.during(connection, tx -> {
                    createCovering(tx, count);
                    return null;
                });
                connection.releaseSavepoint(savepoint);
            } catch (SQLException failure) {
                connection.rollback(savepoint);
                throw failure;
            }
        } catch (SQLException failure) {
            throw cannotCreate(DatabaseFailures.translate("the partition DDL", failure));
        }
    }

    private void announceHeal() {
        engine.diagnostics().event(Code.SQL0057, "no partition of stream \"" + streamName
                + "\" covers the next ids; creating it on the insert path");
    }

    private SqlStreamsException cannotCreate(SqlStreamsException failure) {
        return new SqlStreamsException(Code.SQL0018, "could not create the partition covering the next ids of stream \""
                + streamName + "\": " + failure.getMessage(), failure);
    }

    /**
     * Creates the partitions of the next ids, with room for concurrent producers that draw ids meanwhile: at
     * least {@value #HEAL_SPAN} ids past the next one, at most {@value #MAX_PARTITIONS_PER_HEAL} partitions.
     */
    private void createCovering(Connection connection, int count) throws SQLException {
        long next = streams.nextMessageId(connection, streamId);
        long first = next / partitionSize;
        long last = Math.min((next + Math.max(count, HEAL_SPAN)) / partitionSize, first + MAX_PARTITIONS_PER_HEAL - 1);
        for (long partition = first; partition <= last; partition++) {
            streams.createPartition(connection, streamId, partition, partitionSize);
        }
    }

    private void createAhead(long partition) {
        try {
            engine.database().inTransaction("creating partition " + partition + " of stream \"" + streamName + "\"",
                    connection -> {
                        ddlLockTimeout.apply(connection);
                        streams.createPartition(connection, streamId, partition, partitionSize);
                        return null;
                    });
            highestKnown.accumulateAndGet(partition, Math::max);
        } catch (SqlStreamsException failure) {
            engine.diagnostics().event(Code.SQL0033, "could not create partition " + partition + " of stream \""
                    + streamName + "\" ahead; the first insert past the boundary will: " + failure.getMessage());
        } finally {
            aheadInFlight.set(false);
        }
    }

    private synchronized ExecutorService background() {
        if (background == null) {
            background = engine.environment().threads().serial("sqlstreams-partitions-ahead-" + streamName);
        }
        return background;
    }

    @Override
    public synchronized void close() {
        if (background != null) {
            background.shutdown();
            try {
                background.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
