package io.sqlstreams.engine.consume;

import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicReference;

import io.sqlstreams.AlreadyConsumingException;
import io.sqlstreams.BatchHandler;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.TransactionalHandler;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.HostTransactions;
import io.sqlstreams.engine.HostedClient;

/** A registered group ready to run sessions in this process, one at a time. */
public final class EngineConsumerInstance<T> implements HostedClient.HostedConsumer<T> {
    private final Engine engine;
    private final RegisteredGroup group;
    private final Class<T> payloadType;
    private final int schemaVersion;
    private final ConsumerConfig declared;
    private final AtomicReference<ConsumeSession<T>> running = new AtomicReference<>();

    EngineConsumerInstance(Engine engine, RegisteredGroup group, Class<T> payloadType, int schemaVersion,
                           ConsumerConfig declared) {
        this.engine = engine;
        this.group = group;
        this.payloadType = payloadType;
        this.schemaVersion = schemaVersion;
        this.declared = declared;
    }

    @Override
    public void consume(MessageHandler<T> handler, ConsumeOptions options) {
        consume(plain(handler), options);
    }

    @Override
    public void consume(TransactionalHandler<T> handler, ConsumeOptions options) {
        consume(transactional(handler), options);
    }

    @Override
    public void consumeBatches(BatchHandler<T> handler, ConsumeOptions options) {
        consume(batches(handler), options);
    }

    private void consume(SessionHandler<T> handler, ConsumeOptions options) {
        ConsumeSession<T> session = open(handler, options, engine.environment().handlerExecutor());
        try {
            session.awaitStopped();
        } catch (InterruptedException interrupted) {
            session.close();
            Thread.currentThread().interrupt();
        }
        Throwable failed = session.failure().orElse(null);
        if (failed instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (failed instanceof Error error) {
            throw error;
        }
    }

    @Override
    public ConsumerSession start(MessageHandler<T> handler, ConsumeOptions options) {
        return start(handler, options, engine.environment().handlerExecutor());
    }

    @Override
    public ConsumerSession start(MessageHandler<T> handler, ConsumeOptions options, ExecutorService handlerExecutor) {
        return open(plain(handler), options, handlerExecutor);
    }

    @Override
    public ConsumerSession startEnlisted(MessageHandler<T> handler, HostTransactions transactions,
                                         ConsumeOptions options, ExecutorService handlerExecutor) {
        return open(new SessionHandler.Enlisted<>(Objects.requireNonNull(handler, "handler"),
                Objects.requireNonNull(transactions, "transactions")), options, handlerExecutor);
    }

    @Override
    public ConsumerSession start(TransactionalHandler<T> handler, ConsumeOptions options) {
        return open(transactional(handler), options, engine.environment().handlerExecutor());
    }

    @Override
    public ConsumerSession startBatches(BatchHandler<T> handler, ConsumeOptions options) {
        return open(batches(handler), options, engine.environment().handlerExecutor());
    }

    private static <T> SessionHandler<T> plain(MessageHandler<T> handler) {
        return new SessionHandler.Plain<>(Objects.requireNonNull(handler, "handler"));
    }

    private static <T> SessionHandler<T> transactional(TransactionalHandler<T> handler) {
        return new SessionHandler.Transactional<>(Objects.requireNonNull(handler, "handler"), null);
    }

    private static <T> SessionHandler<T> batches(BatchHandler<T> handler) {
        Objects.requireNonNull(handler, "handler");
        return new SessionHandler.Transactional<>(OneItemBatches.of(handler), handler);
    }

    @Override
    public void stop() {
        ConsumeSession<T> session = running.get();
        if (session != null) {
            session.close();
        }
    }

    private ConsumeSession<T> open(SessionHandler<T> handler, ConsumeOptions options, ExecutorService handlerExecutor) {
        ConsumeOptions resolved = options == null ? ConsumeOptions.defaults() : options;
        resolved.validate();
        ConsumeSession<T> session = new ConsumeSession<>(engine, group, payloadType, schemaVersion, handler, resolved,
                declared, handlerExecutor, stopped -> {
                    engine.sessions().remove(stopped);
                    running.compareAndSet(stopped, null);
                });
        if (!running.compareAndSet(null, session)) {
            throw new AlreadyConsumingException(group.streamName(), group.groupName());
        }
        engine.sessions().add(session);
        try {
            session.begin();
        } catch (RuntimeException | Error failure) {
            running.compareAndSet(session, null);
            session.close();
            throw failure;
        }
        return session;
    }
}
