package io.sqlstreams.messaging;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

import org.eclipse.microprofile.reactive.messaging.Message;

import io.sqlstreams.MessageMeta;

/**
 * A delivery published on an incoming channel. {@link #ack()} records its success; {@link #nack(Throwable)} records
 * what the cause would mean thrown from a handler: {@code Outcome.terminal} dead-letters, {@code Outcome.delay}
 * runs it again later, anything else retries. The first of the two counts; later calls change nothing.
 * {@code unwrap(MessageMeta.class)} gives the delivery's metadata.
 */
public final class IncomingMessage<T> implements Message<T> {
    private static final CompletionStage<Void> DONE = CompletableFuture.completedFuture(null);

    private final T payload;
    private final MessageMeta meta;
    private final AtomicBoolean settled = new AtomicBoolean();
    private final CountDownLatch verdictIn = new CountDownLatch(1);
    private volatile Throwable nackCause;

    IncomingMessage(T payload, MessageMeta meta) {
        this.payload = payload;
        this.meta = meta;
    }

    @Override
    public T getPayload() {
        return payload;
    }

    /** The delivery's stream, group, message id, keys, attempt and headers. */
    public MessageMeta meta() {
        return meta;
    }

    @Override
    public CompletionStage<Void> ack() {
        settle(null);
        return DONE;
    }

    @Override
    public CompletionStage<Void> nack(Throwable cause) {
        settle(Objects.requireNonNull(cause, "cause"));
        return DONE;
    }

    @Override
    public Supplier<CompletionStage<Void>> getAck() {
        return this::ack;
    }

    @Override
    public Function<Throwable, CompletionStage<Void>> getNack() {
        return this::nack;
    }

    @Override
    public <C> C unwrap(Class<C> type) {
        if (type.isInstance(meta)) {
            return type.cast(meta);
        }
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        throw new IllegalArgumentException("a message of stream " + meta.stream() + " unwraps to "
                + MessageMeta.class.getName() + " or " + IncomingMessage.class.getName() + ", not " + type.getName());
    }

    /** Waits for the acknowledgement: null for an ack, the cause of a nack. */
    Throwable awaitVerdict() throws InterruptedException {
        verdictIn.await();
        return nackCause;
    }

    private void settle(Throwable cause) {
        if (settled.compareAndSet(false, true)) {
            nackCause = cause;
            verdictIn.countDown();
        }
    }
}
