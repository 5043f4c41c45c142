package io.sqlstreams.messaging;

/**
 * The messages a channel's subscriber has requested and not yet received (Reactive Streams demand, capped at
 * {@link Long#MAX_VALUE}, which means unbounded), and whether it has cancelled.
 */
final class Demand {
    private long outstanding;
    private boolean cancelled;

    synchronized void add(long requested) {
        outstanding = outstanding + requested < 0 ? Long.MAX_VALUE : outstanding + requested;
        notifyAll();
    }

    /** Waits for one requested message and takes it; false once the subscriber has cancelled. */
    synchronized boolean takeOne() throws InterruptedException {
        while (outstanding == 0 && !cancelled) {
            wait();
        }
        if (cancelled) {
            return false;
        }
        if (outstanding != Long.MAX_VALUE) {
            outstanding--;
        }
        return true;
    }

    synchronized void cancel() {
        cancelled = true;
        notifyAll();
    }

    synchronized boolean cancelled() {
        return cancelled;
    }
}
