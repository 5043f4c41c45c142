package io.sqlstreams.engine.produce;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.sqlstreams.BatcherConfig;
import io.sqlstreams.Code;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.EngineThreads;
import io.sqlstreams.engine.codec.IdempotencyKeys;

/**
 * Groups concurrent produce calls into shared transactions. Commit-driven, with no linger timer: while no batch
 * is committing, a worker takes whatever is queued at once (one message when traffic is light). While one is
 * committing, the queue fills for the next, and another worker starts a concurrent batch only once a whole
 * batch (maxSize) is waiting: batches then grow with the load instead of being split into many small
 * transactions, each paying the statement's and the commit's fixed cost. A batch that fails permanently is
 * retried message by message, so one caller's bad message fails only that caller. Workers start on first use
 * and stop on {@link #close()} once the queue is drained. They are named {@code sqlstreams-produce-<stream>-<n>},
 * n counting from 1 for each thread this batcher starts.
 *
 * <p>Every submitted message gets an answer. A write that fails without a code (a bug, an {@link Error}) fails its
 * callers with SQL0019, since it may have committed. A worker that is interrupted ends once its batch is answered
 * (it takes no new batch with its interrupt set), as does one that fails outside a write; either is replaced at
 * once while the producer is open or messages are queued. When the last worker ends and the thread factory gives
 * no replacement, the queued messages fail with SQL0113, not written, and so does every later submit until a
 * worker can start again.
 */
final class AutoBatcher implements AutoCloseable {

    /** Where the batches go. */
    interface Writes {
        /** Writes one batch in a transaction of its own; its messages without a caller's key share {@code batchKey}. */
        List<ProduceResult> write(List<PreparedMessage> messages, UUID batchKey);

        /** After a batch failed for good: true when none of its attempts committed, and none can any more. */
        boolean claimUnwritten(UUID batchKey);
    }
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition mayStart = lock.newCondition();
    private final ArrayDeque<Request> queue = new ArrayDeque<>();
    private final int maxSize;
    private final int workerCount;
    private final String streamName;
    private final EngineThreads threads;
    private final Writes writer;
    private final List<Thread> workers = new ArrayList<>();
    private int started;
    private int committing;
    private boolean closed;

    AutoBatcher(String streamName, BatcherConfig config, EngineThreads threads,
                Writes writer) {
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
            Throwable refused = startWorkers();
            if (workers.isEmpty()) {
                throw noWorker("no batching worker could be started", refused);
            }
            queue.add(request);
            if (queue.size() == 1 || queue.size() == maxSize) {
                signalIfABatchMayStart();
            }
        } finally {
            lock.unlock();
        }
        return request.result();
    }

    /**
     * Starts workers up to the limit (under the lock). Returns null when they all run, else why the factory gave
     * no more: it threw, returned no thread, or the thread did not start.
     */
    private Throwable startWorkers() {
        try {
            while (workers.size() < workerCount) {
                started++;
                Thread worker = threads.thread("sqlstreams-produce-" + streamName + "-" + started, this::work);
                workers.add(worker);
                try {
                    worker.start();
                } catch (RuntimeException | Error failed) {
                    workers.remove(worker);
                    throw failed;
                }
            }
            return null;
        } catch (RuntimeException | Error refused) {
            return refused;
        }
    }

    /** Commits batches until closed and drained, or until interrupted; then {@link #retire}s. */
    private void work() {
        Throwable ended = null;
        try {
            while (true) {
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while committing");
                }
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
        } catch (InterruptedException | RuntimeException | Error unexpected) {
            ended = unexpected;
        } finally {
            retire(ended);
        }
        if (ended instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The ending worker leaves; while the producer is open or messages are queued, workers are started up to the
     * limit again. When none is left and none can start, every queued message fails with SQL0113.
     */
    private void retire(Throwable ended) {
        lock.lock();
        try {
            workers.remove(Thread.currentThread());
            if (closed && queue.isEmpty()) {
                return;
            }
            Throwable refused = startWorkers();
            if (workers.isEmpty()) {
                SqlStreamsException failure = noWorker("the producer's last batching worker "
                        + (ended instanceof InterruptedException ? "was interrupted" : "failed: " + ended)
                        + " and no thread could be started to replace it", refused);
                if (ended != null) {
                    failure.addSuppressed(ended);
                }
                queue.forEach(request -> request.result().completeExceptionally(failure));
                queue.clear();
            }
            wakeWorkers();
        } finally {
            lock.unlock();
        }
    }

    private SqlStreamsException noWorker(String why, Throwable refused) {
        return new SqlStreamsException(Code.SQL0113, "producing to stream \"" + streamName + "\": " + why
                + "; the message was not written", refused);
    }

    /** The next batch to commit, counted as committing; null once closed and drained. */
    private List<Request> nextBatch() throws InterruptedException {
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
        UUID batchKey = IdempotencyKeys.mintV7();
        try {
            List<ProduceResult> results = writer.write(messages, batchKey);
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).result().complete(results.get(i));
            }
        } catch (SqlStreamsException failure) {
            if (batch.size() > 1 && !failure.isTransient()) {
                commitAlone(batch, batchKey, failure);
            } else {
                batch.forEach(request -> request.result().completeExceptionally(failure));
            }
        } catch (RuntimeException | Error failure) {
            SqlStreamsException unknown = new SqlStreamsException(Code.SQL0019, "producing to stream \""
                    + streamName + "\": the batch's write failed unexpectedly (" + failure
                    + "), so its messages may or may not have been written", failure);
            batch.forEach(request -> request.result().completeExceptionally(unknown));
        }
    }

    /**
     * A batch that failed for good is written message by message, so that only a bad message's caller fails; unless
     * an attempt of it committed after all (its acknowledgement lost before the failure), which its batch key tells:
     * then every message of it is on the log, and each is answered as a retry after a lost acknowledgement is.
     */
    private void commitAlone(List<Request> batch, UUID batchKey, SqlStreamsException failure) {
        boolean unwritten;
        try {
            unwritten = writer.claimUnwritten(batchKey);
        } catch (RuntimeException unsettled) {
            SqlStreamsException unknown = new SqlStreamsException(Code.SQL0019, "producing to stream \""
                    + streamName + "\": the batch failed (" + failure.getMessage() + ") and whether an earlier attempt"
                    + " of it committed could not be read (" + unsettled.getMessage() + "), so its messages may or"
                    + " may not have been written", failure);
            batch.forEach(request -> request.result().completeExceptionally(unknown));
            return;
        }
        if (unwritten) {
            batch.forEach(request -> commit(List.of(request)));
        } else {
            batch.forEach(request -> request.result().complete(new ProduceResult(0, true)));
        }
    }

    /**
     * Lets the workers commit everything already queued, then stops them; waits for replacements too. An interrupt
     * of the wait returns at once, the interrupt set, and the workers go on draining.
     */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            mayStart.signalAll();
        } finally {
            lock.unlock();
        }
        for (Thread worker = anyWorker(); worker != null; worker = anyWorker()) {
            try {
                worker.join();
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return;
            }
            lock.lock();
            try {
                workers.remove(worker);
            } finally {
                lock.unlock();
            }
        }
    }

    private Thread anyWorker() {
        lock.lock();
        try {
            return workers.isEmpty() ? null : workers.get(0);
        } finally {
            lock.unlock();
        }
    }

    private record Request(PreparedMessage message, CompletableFuture<ProduceResult> result) {
    }
}
