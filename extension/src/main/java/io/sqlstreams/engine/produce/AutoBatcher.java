package io.sqlstreams.engine.produce;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

import io.sqlstreams.BatcherConfig;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.loop.NamedThreads;

/**
 * Groups concurrent produce calls into shared transactions. Commit-driven, with no linger timer: while no batch
 * is committing, a worker takes whatever is queued at once (one message when traffic is light). While one is
 * committing, the queue fills for the next, and another worker starts a concurrent batch only once a whole
 * batch (maxSize) is waiting: batches then grow with the load instead of being split into many small
 * transactions, each paying the statement's and the commit's fixed cost. A batch that fails permanently is
 * retried message by message, so one caller's bad message fails only that caller. Workers start on first use
 * and stop on {@link #close()} once the queue is drained. They are named {@code sqlstreams-produce-<stream>-<n>},
 * n counting from 1 for each thread this batcher starts.
 */
final class AutoBatcher implements AutoCloseable {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition mayStart = lock.newCondition();
    private final ArrayDeque<Request> queue = new ArrayDeque<>();
    private final int maxSize;
    private final int workerCount;
    private final String streamName;
    private final ThreadFactory threads;
    private final Function<List<PreparedMessage>, List<ProduceResult>> writer;
    private final List<Thread> workers = new ArrayList<>();
    private int started;
    private int committing;
    private boolean closed;

    AutoBatcher(String streamName, BatcherConfig config, ThreadFactory threads,
                Function<List<PreparedMessage>, List<ProduceResult>> writer) {
        this.streamName = streamName;
        this.maxSize = config.resolvedMaxSize();
        this.workerCount = config.resolvedConcurrencyLimit();
        this.threads = threads;
        this.writer = writer;
    }

    CompletableFuture<ProduceResult> submit(PreparedMessage message) {
        Request request = new Request(message, new CompletableFuture<>());
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("the producer is closed");
            }
            startWorkers();
            queue.add(request);
            if (queue.size() == 1 || queue.size() == maxSize) {
                signalIfABatchMayStart();
            }
        } finally {
            lock.unlock();
        }
        return request.result();
    }

    private void startWorkers() {
        while (workers.size() < workerCount) {
            started++;
            Thread worker = NamedThreads.of(threads, "sqlstreams-produce-" + streamName + "-" + started)
                    .newThread(this::work);
            workers.add(worker);
            worker.start();
        }
    }

    private void work() {
        while (true) {
            List<Request> batch = nextBatch();
            if (batch == null) {
                return;
            }
            try {
                commit(batch);
            } finally {
                lock.lock();
                try {
                    committing--;
                    wakeWorkers();
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    /** The next batch to commit, counted as committing; null once closed and drained (or interrupted). */
    private List<Request> nextBatch() {
        lock.lock();
        try {
            while (!aBatchMayStart()) {
                if (closed && queue.isEmpty()) {
                    return null;
                }
                mayStart.await();
            }
            List<Request> batch = new ArrayList<>(Math.min(queue.size(), maxSize));
            while (batch.size() < maxSize && !queue.isEmpty()) {
                batch.add(queue.poll());
            }
            committing++;
            wakeWorkers();
            return batch;
        } catch (InterruptedException interrupted) {
            return null;
        } finally {
            lock.unlock();
        }
    }

    private boolean aBatchMayStart() {
        return !queue.isEmpty() && (committing == 0 || queue.size() >= maxSize);
    }

    private void signalIfABatchMayStart() {
        if (aBatchMayStart()) {
            mayStart.signal();
        }
    }

    /** After closing, every waiting worker rechecks whether anything is left for it. */
    private void wakeWorkers() {
        if (closed) {
            mayStart.signalAll();
        } else {
            signalIfABatchMayStart();
        }
    }

    private void commit(List<Request> batch) {
        List<PreparedMessage> messages = new ArrayList<>(batch.size());
        for (Request request : batch) {
            messages.add(request.message());
        }
        try {
            List<ProduceResult> results = writer.apply(messages);
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).result().complete(results.get(i));
            }
        } catch (SqlStreamsException failure) {
            if (batch.size() > 1 && !failure.isTransient()) {
                batch.forEach(request -> commit(List.of(request)));
            } else {
                batch.forEach(request -> request.result().completeExceptionally(failure));
            }
        } catch (RuntimeException | Error failure) {
            batch.forEach(request -> request.result().completeExceptionally(failure));
        }
    }

    /** Lets the workers commit everything already queued, then stops them. */
    @Override
    public void close() {
        List<Thread> running;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            running = List.copyOf(workers);
            mayStart.signalAll();
        } finally {
            lock.unlock();
        }
        for (Thread worker : running) {
            try {
                worker.join();
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private record Request(PreparedMessage message, CompletableFuture<ProduceResult> result) {
    }
}
