package io.sqlstreams.engine.produce;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import io.sqlstreams.Code;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.codec.IdempotencyKeys;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.ProduceQueries.MissingPartitionException;
import io.sqlstreams.engine.sql.AfterCommit;
import io.sqlstreams.engine.sql.DatabaseFailures;

/**
 * Writes prepared messages, in a transaction of its own or inside the caller's, healing a missing partition
 * (at most the client's maxRetries + 1 times, then SQL0056) and keeping partitions ahead afterwards. Each write mints
 * one batch key for its messages without a key of their own, before its first attempt: every attempt claims the same.
 */
final class ProduceWriter implements AutoBatcher.Writes {
    private final Engine engine;
    private final long streamId;
    private final String streamName;
    private final ProduceStatement statement;
    private final PartitionKeeper partitions;
    private final Duration attemptTimeout;

    ProduceWriter(Engine engine, long streamId, String streamName, ProduceStatement statement,
                  PartitionKeeper partitions, Duration attemptTimeout) {
        this.engine = engine;
        this.streamId = streamId;
        this.streamName = streamName;
        this.statement = statement;
        this.partitions = partitions;
        this.attemptTimeout = attemptTimeout;
    }

    /**
     * One transaction for all of {@code messages}: the produce statement alone, in auto-commit mode, which
     * is one round trip. The whole batch is retried on a transient failure, with the same batch key: after a lost
     * commit acknowledgement the retry finds it claimed and answers those messages as duplicates, writing nothing
     * twice. Once committed, it is announced.
     */
    List<ProduceResult> inOwnTransaction(List<PreparedMessage> messages) {
        return write(messages, IdempotencyKeys.mintV7());
    }

    /** {@link #inOwnTransaction} under the batch key its caller minted. */
    @Override
    public List<ProduceResult> write(List<PreparedMessage> messages, UUID batchKey) {
        List<ProduceResult> results = healing(() -> partitions.heal(messages.size()),
                () -> engine.database().autoCommit("producing to stream \"" + streamName + "\"",
                        connection -> statement.execute(connection, streamName, messages, batchKey, attemptTimeout)));
        afterWrite(results);
        announceCommit();
        return results;
    }

    @Override
    public boolean claimUnwritten(UUID batchKey) {
        return engine.database().autoCommit("settling a failed batch of stream \"" + streamName + "\"",
                connection -> statement.claimBatchKey(connection, batchKey));
    }

    /** Wakes the stream's idle sessions, in every process: messages of it committed. */
    void announceCommit() {
        engine.wakeups().committed(streamId);
    }

    /**
     * Inside the caller's open transaction, each attempt under a savepoint so a missing partition rolls back
     * only this produce. Not retried otherwise: the caller owns the transaction.
     */
    List<ProduceResult> inCallerTransaction(Connection connection, List<PreparedMessage> messages) {
        UUID batchKey = IdempotencyKeys.mintV7();
        List<ProduceResult> results = healing(() -> partitions.healInside(connection, messages.size()),
                () -> {
            try {
                if (connection.getAutoCommit()) {
                    throw new SqlStreamsException(Code.SQL0132, "producing inside a caller's transaction needs a"
                            + " connection with auto-commit off");
                }
                Savepoint savepoint = connection.setSavepoint();
                try {
                    List<ProduceResult> written = statement.execute(connection, streamName, messages, batchKey,
                            null);
                    connection.releaseSavepoint(savepoint);
                    return written;
                } catch (SQLException | RuntimeException failure) {
                    connection.rollback(savepoint);
                    throw failure;
                }
            } catch (SQLException failure) {
                throw translate(failure);
            }
        });
        afterWrite(results);
        if (connection instanceof AfterCommit library) {
            library.afterCommit(this::announceCommit);
        }
        return results;
    }

    /**
     * Inside a transaction the server manages (JTA): no auto-commit check and no savepoint, which a server's
     * enlisted connection refuses or misreports. A failed statement dooms the caller's transaction, so a missing
     * partition is created in the engine's own transaction, on a thread of its own (a thread holding the caller's
     * transaction would have the server enlist that work too), and the produce fails as transient: run the
     * transaction again.
     */
    List<ProduceResult> inManagedTransaction(Connection connection, List<PreparedMessage> messages) {
        List<ProduceResult> results;
        try {
            results = statement.execute(connection, streamName, messages, IdempotencyKeys.mintV7(), null);
        } catch (SQLException failure) {
            throw translate(failure);
        } catch (MissingPartitionException failure) {
            healApart(messages.size());
            throw new SqlStreamsException(Code.SQL0110, "stream \"" + streamName + "\" had no partition for the"
                    + " next ids; it was created, and the transaction must run again", failure);
        }
        afterWrite(results);
        return results;
    }

    private void healApart(int count) {
        AtomicReference<RuntimeException> failed = new AtomicReference<>();
        Thread healer = engine.environment().threads().thread("sqlstreams-partitions-heal-" + streamName, () -> {
            try {
                partitions.heal(count);
            } catch (RuntimeException failure) {
                failed.set(failure);
            }
        });
        healer.start();
        try {
            healer.join();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        if (failed.get() != null) {
            throw failed.get();
        }
    }

    private List<ProduceResult> healing(Runnable heal, Write write) {
        int heals = engine.config().retry().maxRetries() + 1;
        for (int healed = 0; ; healed++) {
            try {
                return write.run();
            } catch (MissingPartitionException failure) {
                if (healed >= heals) {
                    throw new SqlStreamsException(Code.SQL0056, "partition creation for stream \"" + streamName
                            + "\" cannot keep up with its id sequence after " + heals + " attempts", failure);
                }
                heal.run();
            }
        }
    }

    private void afterWrite(List<ProduceResult> results) {
        long highest = results.stream().mapToLong(ProduceResult::id).max().orElse(0);
        if (highest > 0) {
            partitions.afterInsert(highest);
        }
    }

    private SqlStreamsException translate(SQLException failure) {
        return DatabaseFailures.translate("producing to stream \"" + streamName + "\" inside the caller's transaction",
                failure);
    }

    @FunctionalInterface
    private interface Write {
        List<ProduceResult> run();
    }
}
