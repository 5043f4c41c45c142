package io.sqlstreams.engine.produce;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.sqlstreams.engine.sql.DatabaseFailures;
import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.Engine;

/**
 * Keeps partitions of one stream's log ahead of its producers. After an insert reaches 80 % of its partition,
 * the next partition is created in the background (retried after every later insert until it exists; a
 * failure logs SQL0033). An insert that finds no partition for its ids creates the partitions the retry will
 * need (SQL0057). Partition DDL runs under a 2 s lock timeout and an advisory lock per partition, so one
 * creator runs at a time.
 */
final class PartitionKeeper implements AutoCloseable {
    private static final int HEAL_SPAN = 256;
    private static final int MAX_PARTITIONS_PER_HEAL = 64;

    private final Engine engine;
    private final long streamId;
    private final String streamName;
    private final long partitionSize;
    private final AtomicLong highestKnown = new AtomicLong(0);
    private final AtomicBoolean aheadInFlight = new AtomicBoolean();
    private ExecutorService background;

    PartitionKeeper(Engine engine, long streamId, String streamName, long partitionSize) {
        this.engine = engine;
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
                        lockTimeout(connection);
                        createCovering(connection, count);
                        return null;
                    });
        } catch (SqlStreamsException failure) {
            throw cannotCreate(failure);
        }
    }

    /**
     * {@link #heal} inside the caller's transaction on {@code connection}: that transaction already holds a
     * lock on the log that partition DDL on another connection would wait for. Runs under a savepoint with a
     * 2 s lock timeout restored afterwards; the new partition commits (or rolls back) with the caller.
     */
    void healInside(Connection connection, int count) {
        announceHeal();
        try {
            Savepoint savepoint = connection.setSavepoint();
            try {
                String previous = setting(connection, "lock_timeout");
                setLocal(connection, "lock_timeout", "2000ms");
                createCovering(connection, count);
                setLocal(connection, "lock_timeout", previous);
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
        long next = nextId(connection);
        long first = next / partitionSize;
        long last = Math.min((next + Math.max(count, HEAL_SPAN)) / partitionSize, first + MAX_PARTITIONS_PER_HEAL - 1);
        for (long partition = first; partition <= last; partition++) {
            create(connection, partition);
        }
    }

    private void createAhead(long partition) {
        try {
            engine.database().inTransaction("creating partition " + partition + " of stream \"" + streamName + "\"",
                    connection -> {
                        lockTimeout(connection);
                        create(connection, partition);
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

    private void create(Connection connection, long partition) throws SQLException {
        String qualified = engine.sql().schema() + ".message_log_" + streamId + "_" + partition;
        try (PreparedStatement exists = connection.prepareStatement(engine.sql().get("partition_exists"))) {
            exists.setString(1, qualified);
            try (ResultSet row = exists.executeQuery()) {
                row.next();
                if (row.getBoolean(1)) {
                    return;
                }
            }
        }
        try (PreparedStatement lock = connection.prepareStatement(engine.sql().get("lock_partition_creation"))) {
            lock.setString(1, qualified);
            lock.execute();
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute(engine.sql().forPartition("create_partition", streamId, partition,
                    partition * partitionSize, (partition + 1) * partitionSize));
        }
    }

    private static void lockTimeout(Connection connection) throws SQLException {
        setLocal(connection, "lock_timeout", "2000ms");
    }

    private static String setting(Connection connection, String name) throws SQLException {
        try (PreparedStatement read = connection.prepareStatement("SELECT current_setting(?)")) {
            read.setString(1, name);
            try (ResultSet row = read.executeQuery()) {
                row.next();
                return row.getString(1);
            }
        }
    }

    private static void setLocal(Connection connection, String name, String value) throws SQLException {
        try (PreparedStatement set = connection.prepareStatement("SELECT set_config(?, ?, true)")) {
            set.setString(1, name);
            set.setString(2, value);
            set.execute();
        }
    }

    private long nextId(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery(engine.sql().forStream("sequence_last_value", streamId))) {
            row.next();
            return row.getBoolean(2) ? row.getLong(1) + 1 : row.getLong(1);
        }
    }

    private synchronized ExecutorService background() {
        if (background == null) {
            background = Executors.newSingleThreadExecutor(engine.environment().threadFactory());
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
