package io.sqlstreams.messaging;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageMeta;

/**
 * The subscription of an {@link IncomingChannel}'s subscriber, and the handler of its session: a delivery waits for
 * the subscriber's demand, is published, and its handler returns or throws with the message's acknowledgement.
 * Signals to the subscriber are serialized. Cancelling stops the session on a thread of its own (a subscriber may
 * cancel from {@code onNext}, on a handler thread the stop waits for).
 */
final class ChannelSubscription<T> implements Subscription {
    private final String channel;
    private final Subscriber<? super Message<T>> subscriber;
    private final Demand demand = new Demand();
    private final Object signals = new Object();
    private boolean terminated;
    private ConsumerSession session;
    private ConsumerSession began;
    private Throwable signalledFailure;
    private boolean stopRequested;
    private final ThreadFactory stopping;

    ChannelSubscription(String channel, Subscriber<? super Message<T>> subscriber, ThreadFactory stopping) {
        this.channel = channel;
        this.subscriber = subscriber;
        this.stopping = stopping;
    }

    @Override
    public void request(long n) {
        if (n <= 0) {
            fail(new IllegalArgumentException("channel " + channel + " was requested " + n
                    + " messages; a request must be positive (Reactive Streams rule 3.9)"));
            return;
        }
        demand.add(n);
    }

    @Override
    public void cancel() {
        demand.cancel();
        ConsumerSession running = stopOnce();
        if (running != null) {
            stopping.newThread(running::close).start();
        }
    }

    /**
     * Starts the session, unless the subscriber cancelled or the channel closed first; a session that cannot start
     * fails the subscriber.
     */
    void begin(Supplier<ConsumerSession> start) {
        synchronized (this) {
            if (stopRequested) {
                return;
            }
        }
        try {
            running(start.get());
        } catch (RuntimeException refused) {
            fail(refused);
        }
    }

    /** The session began: it is the one to stop, at once if the subscriber has cancelled already. */
    private void running(ConsumerSession started) {
        boolean cancelled;
        synchronized (this) {
            session = started;
            began = started;
            cancelled = stopRequested;
        }
        if (cancelled) {
            cancel();
        }
    }

    /** Signals {@code failure} to the subscriber, unless a terminal signal went already, and stops. */
    void fail(Throwable failure) {
        synchronized (signals) {
            if (terminated) {
                return;
            }
            terminated = true;
            synchronized (this) {
                signalledFailure = failure;
            }
            subscriber.onError(failure);
        }
        cancel();
    }

    synchronized ChannelStatus status() {
        if (signalledFailure != null) {
            return new ChannelStatus(ChannelStatus.Stage.STOPPED, signalledFailure);
        }
        if (began == null) {
            return stopRequested ? new ChannelStatus(ChannelStatus.Stage.STOPPED, null) : ChannelStatus.WAITING;
        }
        return began.isRunning() ? ChannelStatus.RUNNING
                : new ChannelStatus(ChannelStatus.Stage.STOPPED, began.failure().orElse(null));
    }

    /** Stops the session and waits for it, as the connector does when its application stops. */
    void close() {
        demand.cancel();
        ConsumerSession running = stopOnce();
        if (running != null) {
            running.close();
        }
    }

    /** The session's handler: publishes the delivery once there is demand and waits for its acknowledgement. */
    void deliver(T payload) throws Exception {
        MessageMeta meta = MessageMeta.current();
        if (!demand.takeOne()) {
            throw handedBack();
        }
        IncomingMessage<T> message = new IncomingMessage<>(payload, meta);
        synchronized (signals) {
            if (terminated || demand.cancelled()) {
                throw handedBack();
            }
            subscriber.onNext(message);
        }
        Throwable cause = message.awaitVerdict();
        if (cause instanceof Exception exception) {
            throw exception;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        if (cause != null) {
            throw new ExecutionException("message nacked by channel " + channel, cause);
        }
    }

    /** The session to stop, the first time a stop is asked for after it began; null otherwise. */
    private synchronized ConsumerSession stopOnce() {
        if (session == null) {
            stopRequested = true;
            return null;
        }
        ConsumerSession running = session;
        session = null;
        return running;
    }

    /** Ends a run without counting it: the session hands back a delivery whose handler was interrupted. */
    private InterruptedException handedBack() {
        return new InterruptedException("channel " + channel + " stopped before the delivery was published;"
                + " it is handed back");
    }
}
