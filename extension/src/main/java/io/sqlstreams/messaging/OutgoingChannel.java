package io.sqlstreams.messaging;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import io.sqlstreams.Code;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.ProducerConfig;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.SqlStreamsException;

/**
 * A Reactive Streams subscriber that produces every message it receives to one stream, one at a time in the order
 * received, each in its own transaction on the channel's own thread (never in a transaction of the thread that sent
 * it): a message is acknowledged once its produce committed and nacked with the failure when nothing was written. A message's payload class is its type on the stream (each class gets its own
 * producer, registered at its first message); an {@link OutgoingMessage} carries its produce options.
 */
public final class OutgoingChannel implements Subscriber<Message<?>>, AutoCloseable {
    private final String name;
    private final SqlStreams client;
    private final String stream;
    private final ProducerConfig config;
    private final Executor producing;
    private final Map<Class<?>, Producer<Object>> producers = new ConcurrentHashMap<>();
    private Subscription subscription;

    /**
     * @param producing runs the produces, one at a time (the channel requests the next message only when the last
     *                  one is settled): a single thread of the channel's own
     */
    public OutgoingChannel(String name, SqlStreams client, String stream, ProducerConfig config, Executor producing) {
        this.name = Objects.requireNonNull(name, "name");
        this.client = Objects.requireNonNull(client, "client");
        this.stream = Objects.requireNonNull(stream, "stream");
        this.config = Objects.requireNonNull(config, "config");
        this.producing = Objects.requireNonNull(producing, "producing");
    }

    @Override
    public synchronized void onSubscribe(Subscription offered) {
        Objects.requireNonNull(offered, "subscription");
        if (subscription != null) {
            offered.cancel();
            return;
        }
        subscription = offered;
        offered.request(1);
    }

    @Override
    public void onNext(Message<?> message) {
        Objects.requireNonNull(message, "message");
        try {
            producing.execute(() -> produce(message));
        } catch (RejectedExecutionException closed) {
            message.nack(new SqlStreamsException(Code.SQL0156, this + " is closed (its application is stopping);"
                    + " the message was not produced"));
            // the next message the sender has buffered is nacked too, rather than left without an answer
            subscription.request(1);
        }
    }

    private void produce(Message<?> message) {
        try {
            producer(message.getPayload().getClass()).produce(message.getPayload(), optionsOf(message));
        } catch (RuntimeException failed) {
            message.nack(failed);
            subscription.request(1);
            return;
        }
        message.ack();
        subscription.request(1);
    }

    /** The upstream failed: the Reactive Messaging implementation reports that; nothing more arrives. */
    @Override
    public void onError(Throwable failure) {
        Objects.requireNonNull(failure, "failure");
    }

    @Override
    public void onComplete() {
    }

    @Override
    public void close() {
        producers.values().forEach(Producer::close);
    }

    @SuppressWarnings("unchecked")
    private Producer<Object> producer(Class<?> payloadType) {
        return producers.computeIfAbsent(payloadType,
                type -> (Producer<Object>) client.stream(stream, type).producer().register(config));
    }

    private static ProduceOptions optionsOf(Message<?> message) {
        try {
            return message.unwrap(ProduceOptions.class);
        } catch (IllegalArgumentException | ClassCastException plain) {
            return ProduceOptions.none();
        }
    }

    @Override
    public String toString() {
        return "outgoing channel " + name + " to stream " + stream;
    }
}
