package io.sqlstreams.messaging;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;

import org.eclipse.microprofile.reactive.messaging.Message;

import io.sqlstreams.ProduceOptions;

/**
 * A message for an outgoing stream channel with the options of its produce: message and routing keys, headers,
 * idempotency key. {@code unwrap(ProduceOptions.class)} gives them; a message of any other kind is produced with
 * none.
 */
public final class OutgoingMessage<T> implements Message<T> {
    private static final Supplier<CompletionStage<Void>> NO_ACK = () -> CompletableFuture.completedFuture(null);
    private static final Function<Throwable, CompletionStage<Void>> NO_NACK =
            cause -> CompletableFuture.completedFuture(null);

    private final T payload;
    private final ProduceOptions options;
    private final Supplier<CompletionStage<Void>> ack;
    private final Function<Throwable, CompletionStage<Void>> nack;

    private OutgoingMessage(T payload, ProduceOptions options, Supplier<CompletionStage<Void>> ack,
                            Function<Throwable, CompletionStage<Void>> nack) {
        this.payload = Objects.requireNonNull(payload, "payload");
        this.options = Objects.requireNonNull(options, "options");
        this.ack = ack;
        this.nack = nack;
    }

    public static <T> OutgoingMessage<T> of(T payload, ProduceOptions options) {
        return new OutgoingMessage<>(payload, options, NO_ACK, NO_NACK);
    }

    /** {@code payload} produced with {@code options}, acknowledging {@code source} when it is (chaining). */
    public static <T> OutgoingMessage<T> of(T payload, ProduceOptions options, Message<?> source) {
        return new OutgoingMessage<>(payload, options, source.getAck(), source.getNack());
    }

    @Override
    public T getPayload() {
        return payload;
    }

    public ProduceOptions options() {
        return options;
    }

    @Override
    public Supplier<CompletionStage<Void>> getAck() {
        return ack;
    }

    @Override
    public Function<Throwable, CompletionStage<Void>> getNack() {
        return nack;
    }

    @Override
    public CompletionStage<Void> ack() {
        return ack.get();
    }

    @Override
    public CompletionStage<Void> nack(Throwable cause) {
        return nack.apply(cause);
    }

    @Override
    public <C> C unwrap(Class<C> type) {
        if (type.isInstance(options)) {
            return type.cast(options);
        }
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        throw new IllegalArgumentException("an outgoing message unwraps to " + ProduceOptions.class.getName()
                + " or " + OutgoingMessage.class.getName() + ", not " + type.getName());
    }
}
