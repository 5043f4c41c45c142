package io.sqlstreams.messaging;

import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerInstance;

/**
 * A consumer group's deliveries as a Reactive Streams publisher of {@link IncomingMessage}s, to one subscriber. Once
 * the channel is both subscribed and {@linkplain #start() started}, in either order, it starts a consume session whose
 * handler publishes each delivery when the subscriber has demand and ends with the message's acknowledgement, so
 * order per key, exclusive keys, timeouts and the retry budget are those of any handler, and no more than the
 * session's message concurrency is ever published and unacknowledged. Cancelling stops the session; a delivery
 * still waiting for demand is handed back without counting a run.
 */
public final class IncomingChannel<T> implements Publisher<Message<T>> {
    private static final Subscription REFUSED = new Subscription() {
        @Override
        public void request(long n) {
        }

        @Override
        public void cancel() {
        }
    };

    private final String name;
    private final ConsumerInstance<T> consumer;
    private final ConsumeOptions options;
    private final ThreadFactory stopping;
    private final AtomicReference<ChannelSubscription<T>> subscription = new AtomicReference<>();
    private boolean startAllowed;
    private boolean sessionBegun;

    /**
     * @param name     the channel's name, for messages and thread names
     * @param consumer the registered group instance whose session the subscription runs
     * @param options  that session's options
     * @param stopping where a cancelled subscription stops the session, off the subscriber's thread
     */
    public IncomingChannel(String name, ConsumerInstance<T> consumer, ConsumeOptions options,
                           ThreadFactory stopping) {
        this.name = Objects.requireNonNull(name, "name");
        this.consumer = Objects.requireNonNull(consumer, "consumer");
        this.options = Objects.requireNonNull(options, "options");
        this.stopping = Objects.requireNonNull(stopping, "stopping");
    }

    @Override
    public void subscribe(Subscriber<? super Message<T>> subscriber) {
        Objects.requireNonNull(subscriber, "subscriber");
        ChannelSubscription<T> created = new ChannelSubscription<>(name, subscriber, stopping);
        if (!subscription.compareAndSet(null, created)) {
            subscriber.onSubscribe(REFUSED);
            subscriber.onError(new IllegalStateException("channel " + name + " has a subscriber already;"
                    + " a stream channel publishes to one"));
            return;
        }
        subscriber.onSubscribe(created);
        beginWhenReady();
    }

    /**
     * Lets the session begin: at once if the channel is subscribed, else at its subscription. Until then nothing is
     * claimed and the channel is waiting.
     */
    public void start() {
        synchronized (this) {
            startAllowed = true;
        }
        beginWhenReady();
    }

    private void beginWhenReady() {
        ChannelSubscription<T> ready;
        synchronized (this) {
            ready = subscription.get();
            if (!startAllowed || ready == null || sessionBegun) {
                return;
            }
            sessionBegun = true;
        }
        ready.begin(() -> consumer.start(ready::deliver, options));
    }

    /** Where the channel stands: waiting until subscribed and started, then its session's state. */
    public ChannelStatus status() {
        ChannelSubscription<T> subscribed = subscription.get();
        return subscribed == null ? ChannelStatus.WAITING : subscribed.status();
    }

    /** Stops the channel's session and waits for it, as any session's stop does. */
    public void close() {
        ChannelSubscription<T> subscribed = subscription.get();
        if (subscribed != null) {
            subscribed.close();
        }
    }
}
