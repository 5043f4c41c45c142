package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The queue between the claim loop and the dispatcher: QueueSize deliveries of room, taken before a claim and
 * given back as each delivery leaves (dispatched, or deferred without running), and the units waiting for a
 * permit.
 */
final class LocalQueue {
    private final BlockingQueue<DispatchUnit> units = new LinkedBlockingQueue<>();
    private final Semaphore room;
    private final AtomicInteger overdraft = new AtomicInteger();
    private int capacity;

    LocalQueue(int size) {
        this.room = new Semaphore(size);
        this.capacity = size;
    }

    /**
     * Changes the room the queue has in all, on the claim loop's thread: more is available at once; less is taken
     * from what is free and the rest owed, paid back as deliveries leave.
     */
    void resize(int size) {
        int change = size - capacity;
        capacity = size;
        if (change > 0) {
            room.release(change);
        } else if (change < 0) {
            owe(-change);
        }
    }

    /** Waits for room for a full batch, or a poll period and then takes whatever room there is. */
    int takeRoom(int batch, Duration pollRate) throws InterruptedException {
        if (room.tryAcquire(batch, pollRate.toNanos(), TimeUnit.NANOSECONDS)) {
            return batch;
        }
        return room.drainPermits();
    }

    /** Gives back room taken for a claim that brought nothing. */
    void giveBack(int taken) {
        room.release(taken);
    }

    /**
     * Trues the room taken for a claim up to the range's size. A reclaimed range keeps its original size, which
     * may exceed this session's queue: the shortfall is owed and paid back as deliveries leave.
     */
    void settle(int taken, int size) {
        if (size < taken) {
            room.release(taken - size);
        } else if (size > taken) {
            owe(size - taken);
        }
    }

    /** Takes {@code needed} room from what is free; what is not free is owed. */
    private void owe(int needed) {
        int drained = room.drainPermits();
        if (drained > needed) {
            room.release(drained - needed);
        } else {
            overdraft.addAndGet(needed - drained);
        }
    }

    void add(DispatchUnit unit) {
        units.add(unit);
    }

    /** The next unit, or null after {@code wait}. */
    DispatchUnit poll(Duration wait) throws InterruptedException {
        return units.poll(wait.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** One delivery left: its room goes back, or pays off what a large reclaim owes. */
    void left() {
        if (overdraft.getAndUpdate(owed -> owed > 0 ? owed - 1 : 0) == 0) {
            room.release();
        }
    }
}
