package io.sqlstreams.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * What the handlers of one measurement saw: every handled message id, with one figure per message (a latency, an
 * entry time) when the measurement wants one. Each handler thread writes to a structure of its own, preallocated
 * and found through a thread-local, so recording costs no lock; the lists are read once the sessions have stopped.
 */
final class HandledLog {
    private final int expectedPerThread;
    private final Queue<Recorder> recorders = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<Recorder> local = ThreadLocal.withInitial(this::newRecorder);
    private final LongAdder handled = new LongAdder();

    private final boolean withValues;

    /** One handler thread's records. */
    static final class Recorder {
        final LongList ids;
        final LongList values;
        long lastNanos;

        Recorder(int expected, boolean withValues) {
            ids = new LongList(expected);
            values = new LongList(withValues ? expected : 16);
        }
    }

    /**
     * @param expectedPerThread how many messages one handler thread is likely to see, to size its arrays
     * @param withValues        whether a figure is recorded with each id
     */
    HandledLog(long expectedPerThread, boolean withValues) {
        this.expectedPerThread = (int) Math.min(1 << 22, Math.max(1024, expectedPerThread));
        this.withValues = withValues;
    }

    private Recorder newRecorder() {
        Recorder recorder = new Recorder(expectedPerThread, withValues);
        recorders.add(recorder);
        return recorder;
    }

    /** Records that the calling handler thread handled {@code id}. */
    void record(long id) {
        Recorder recorder = local.get();
        recorder.ids.add(id);
        recorder.lastNanos = System.nanoTime();
        handled.increment();
    }

    /** Records that the calling handler thread handled {@code id}, with a figure of the measurement's choosing. */
    void record(long id, long value) {
        Recorder recorder = local.get();
        recorder.ids.add(id);
        recorder.values.add(value);
        recorder.lastNanos = System.nanoTime();
        handled.increment();
    }

    /** Messages handled so far (handler calls, duplicates included). */
    long count() {
        return handled.sum();
    }

    /** Waits until at least {@code target} messages were handled; false when {@code timeout} passed first. */
    boolean awaitCount(long target, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (handled.sum() < target) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(500));
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
        return true;
    }

    /** Every handled id, ascending (an id handled twice appears twice). Read after the sessions stopped. */
    long[] sortedIds() {
        return LongList.sortedUnion(recorders.stream().map(r -> r.ids).toList());
    }

    /** Each handled id with its figure, in no particular order: {@code [ids, values]}. */
    long[][] pairs() {
        List<long[]> ids = new ArrayList<>();
        List<long[]> values = new ArrayList<>();
        for (Recorder recorder : recorders) {
            ids.add(recorder.ids.toArray());
            values.add(recorder.values.toArray());
        }
        return new long[][] {concat(ids), concat(values)};
    }

    /** The {@link System#nanoTime()} at which the last message was handled, over every thread. */
    long lastNanos() {
        return recorders.stream().mapToLong(r -> r.lastNanos).max().orElseThrow();
    }

    private static long[] concat(List<long[]> parts) {
        long[] all = new long[parts.stream().mapToInt(p -> p.length).sum()];
        int at = 0;
        for (long[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }
}
