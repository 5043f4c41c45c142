package io.sqlstreams.engine.produce;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import io.sqlstreams.Code;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.ProducerConfig;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.HostedClient;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.sql.DatabaseFailures;
import io.sqlstreams.engine.sql.Transactions;
import io.sqlstreams.engine.telemetry.SendTrace;

/** A producer for one stream, bound to the stream's id (a rename does not disturb it). */
public final class EngineProducer<T> implements HostedClient.HostedProducer<T> {
    private final Engine engine;
    private final String streamName;
    private final ProducerConfig config;
    private final MessagePreparer preparer;
    private final ProduceWriter writer;
    private final PartitionKeeper partitions;
    private final AutoBatcher batcher;

    EngineProducer(Engine engine, Stream stream, ProducerConfig config, int schemaVersion) {
        this.engine = engine;
        this.streamName = stream.name();
        this.config = config;
        this.preparer = new MessagePreparer(engine.codec(), schemaVersion, config);
        this.partitions = new PartitionKeeper(engine, stream.id(), stream.name(), stream.partitionSize());
        this.writer = new ProduceWriter(engine, stream.id(), stream.name(),
                new ProduceStatement(engine.sql(), stream.id()), partitions,
                config.resolvedBatch().resolvedAttemptTimeout());
        this.batcher = new AutoBatcher(stream.name(), config.resolvedBatch(), engine.environment().threads(),
                writer);
    }

    @Override
    public ProduceResult produce(T message, ProduceOptions options) {
        Instant started = engine.environment().clock().instant();
        ProduceResult result = traced(1, trace -> {
            PreparedMessage prepared = preparer.prepare(message, options, trace);
            return List.of(options != null && options.idempotencyKey() != null
                    ? writer.inOwnTransaction(List.of(prepared)).get(0)
                    : await(batcher.submit(prepared)));
        }).get(0);
        reportIfSlow(started, "produce");
        return result;
    }

    @Override
    public List<ProduceResult> produceBatch(List<ProduceItem<T>> items) {
        Instant started = engine.environment().clock().instant();
        List<ProduceResult> results = tracedItems(items, writer::inOwnTransaction);
        reportIfSlow(started, "produceBatch of " + items.size());
        return results;
    }

    @Override
    public ProduceResult produce(Connection connection, T message, ProduceOptions options) {
        Instant started = engine.environment().clock().instant();
        ProduceResult result = traced(1, trace -> writer.inCallerTransaction(connection,
                List.of(preparer.prepare(message, options, trace)))).get(0);
        reportIfSlow(started, "produce in the caller's transaction");
        return result;
    }

    @Override
    public List<ProduceResult> produceInManagedTransaction(Connection enlisted, List<ProduceItem<T>> items) {
        Instant started = engine.environment().clock().instant();
        List<ProduceResult> results = tracedItems(items, prepared -> writer.inManagedTransaction(enlisted, prepared));
        reportIfSlow(started, "produce of " + items.size() + " in the server's transaction");
        return results;
    }

    /** Writes {@code items} with {@code write} under one send trace; an empty list writes and traces nothing. */
    private List<ProduceResult> tracedItems(List<ProduceItem<T>> items,
                                            Function<List<PreparedMessage>, List<ProduceResult>> write) {
        checkItems(items);
        if (items.isEmpty()) {
            return List.of();
        }
        return traced(items.size(), trace -> {
            List<PreparedMessage> prepared = new ArrayList<>(items.size());
            for (ProduceItem<T> item : items) {
                prepared.add(preparer.prepare(item.message(), item.options(), trace));
            }
            return write.apply(prepared);
        });
    }

    /** Runs one produce call under a send trace of {@code messages} messages, which learns how it ended. */
    private List<ProduceResult> traced(int messages, Function<SendTrace, List<ProduceResult>> call) {
        SendTrace trace = engine.telemetry().send(streamName, messages);
        List<ProduceResult> results;
        try {
            results = call.apply(trace);
        } catch (RuntimeException failure) {
            trace.failed(failure);
            throw failure;
        }
        trace.sent(results);
        return results;
    }

    private static void checkItems(List<?> items) {
        if (items == null) {
            throw invalidItems("items", "must be a list of items (empty for none)");
        }
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i) == null) {
                throw invalidItems("items[" + i + "]", "must not be null");
            }
        }
    }

    private static InvalidConfigurationException invalidItems(String property, String rule) {
        return new InvalidConfigurationException(List.of(new InvalidConfigurationException.Violation(property, null,
                rule)));
    }

    @Override
    public ProduceResult produceInTransaction(TransactionalWork<T> work, ProduceOptions options) {
        Instant started = engine.environment().clock().instant();
        ProduceResult result;
        try (Connection connection = engine.database().dataSource().getConnection()) {
            result = Transactions.run(connection, tx -> {
                T payload = work.run(tx);
                return traced(1, trace -> writer.inCallerTransaction(tx,
                        List.of(preparer.prepare(payload, options, trace)))).get(0);
            });
        } catch (SQLException failure) {
            throw DatabaseFailures.translate("producing to stream \"" + streamName + "\" with the caller's work",
                    failure);
        }
        writer.announceCommit();
        reportIfSlow(started, "produceInTransaction (the work included)");
        return result;
    }

    @Override
    public void announceCommit() {
        writer.announceCommit();
    }

    @Override
    public void close() {
        batcher.close();
        partitions.close();
    }

    private ProduceResult await(CompletableFuture<ProduceResult> pending) {
        try {
            return pending.get();
        } catch (InterruptedException interrupted) {
            return awaitAfterInterrupt(pending);
        } catch (ExecutionException failed) {
            throw rethrow(failed);
        }
    }

    /** Interrupted: keep waiting up to the shutdown grace for the real outcome (a negative grace waits not at all). */
    private ProduceResult awaitAfterInterrupt(CompletableFuture<ProduceResult> pending) {
        Duration grace = config.resolvedBatch().resolvedShutdownGrace();
        try {
            if (!grace.isNegative()) {
                return pending.get(grace.toNanos(), TimeUnit.NANOSECONDS);
            }
        } catch (ExecutionException failed) {
            throw rethrow(failed);
        } catch (InterruptedException | TimeoutException gaveUp) {
            // fall through: the outcome stays unknown
        } finally {
            Thread.currentThread().interrupt();
        }
        throw new SqlStreamsException(Code.SQL0019, "produce to stream \"" + streamName
                + "\" was interrupted before its batch committed; the message may or may not have been written");
    }

    private static RuntimeException rethrow(ExecutionException failed) {
        if (failed.getCause() instanceof RuntimeException runtime) {
            return runtime;
        }
        return new IllegalStateException(failed.getCause());
    }

    private void reportIfSlow(Instant started, String what) {
        Duration threshold = config.resolvedSlowProduceThreshold();
        if (threshold.isZero()) {
            return;
        }
        Duration took = Duration.between(started, engine.environment().clock().instant());
        if (took.compareTo(threshold) > 0) {
            engine.diagnostics().event(Code.SQL0038, what + " to stream \"" + streamName + "\" took " + took.toMillis()
                    + " ms, over the slow-produce threshold of " + threshold.toMillis() + " ms");
        }
    }
}
