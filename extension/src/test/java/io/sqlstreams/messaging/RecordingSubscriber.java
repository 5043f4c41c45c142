package io.sqlstreams.messaging;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * A subscriber that records what it is sent, checks that no two signals overlap, and hands every message to an
 * action of the test (which acknowledges it, or keeps it).
 */
final class RecordingSubscriber<T> implements Subscriber<Message<T>> {
    private final Consumer<IncomingMessage<T>> action;
    private final List<IncomingMessage<T>> received = new CopyOnWriteArrayList<>();
    private final AtomicReference<Subscription> subscription = new AtomicReference<>();
    private final AtomicReference<Throwable> error = new AtomicReference<>();
    private final AtomicInteger inSignal = new AtomicInteger();
    private final AtomicInteger overlaps = new AtomicInteger();
    private final long initialRequest;

    RecordingSubscriber(long initialRequest, Consumer<IncomingMessage<T>> action) {
        this.initialRequest = initialRequest;
        this.action = action;
    }

    @Override
    public void onSubscribe(Subscription offered) {
        subscription.set(offered);
        if (initialRequest > 0) {
            offered.request(initialRequest);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public void onNext(Message<T> message) {
        if (inSignal.incrementAndGet() > 1) {
            overlaps.incrementAndGet();
        }
        try {
            IncomingMessage<T> incoming = message.unwrap(IncomingMessage.class);
            received.add(incoming);
            action.accept(incoming);
        } finally {
            inSignal.decrementAndGet();
        }
    }

    @Override
    public void onError(Throwable failure) {
        error.set(failure);
    }

    @Override
    public void onComplete() {
        error.set(new AssertionError("a stream channel never completes"));
    }

    Subscription subscription() {
        return subscription.get();
    }

    List<IncomingMessage<T>> received() {
        return List.copyOf(received);
    }

    Throwable error() {
        return error.get();
    }

    /** How often onNext was called while another call was still running (Reactive Streams rule 1.3). */
    int overlaps() {
        return overlaps.get();
    }
}
