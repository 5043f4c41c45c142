package io.sqlstreams.engine.produce;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;

import io.sqlstreams.BatcherConfig;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.SqlStreamsException;

/**
 * Groups concurrent produce calls into shared transactions. Commit-driven, with no linger timer: an idle
 * worker takes whatever is queued (one message when traffic is light, up to maxSize under load) and commits
 * it while the queue fills for the next worker. A batch that fails permanently is retried message by message, so
 * one caller's bad message fails only that caller. Workers start on first use and stop on {@link #close()} once
 * the queue is drained.
 */
final class AutoBatcher implements AutoCloseable {
    private static final Request STOP = new Request(null, null);

    private final BlockingQueue<Request> queue = new LinkedBlockingQueue<>();
    private final int maxSize;
    private final int workerCount;
    private final ThreadFactory threads;
    private final Function<List<PreparedMessage>, List<ProduceResult>> writer;
    private final List<Thread> workers = new ArrayList<>();
    private boolean closed;

    AutoBatcher(BatcherConfig config, ThreadFactory threads, Function<List<PreparedMessage>, List<ProduceResult>> writer) {
        this.maxSize = config.resolvedMaxSize();
        this.workerCount = config.resolvedConcurrencyLimit();
        this.threads = threads;
        this.writer = writer;
    }

    CompletableFuture<ProduceResult> submit(PreparedMessage message) {
        Request request = new Request(message, new CompletableFuture<>());
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the producer is closed");
            }
            startWorkers();
            queue.add(request);
        }
        return request.result();
    }

    private void startWorkers() {
        while (workers.size() < workerCount) {
            Thread worker = threads.newThread(this::work);
            workers.add(worker);
            worker.start();
        }
    }

    private void work() {
        List<Request> batch = new ArrayList<>(maxSize);
        while (true) {
            batch.clear();
            try {
                batch.add(queue.take());
            } catch (InterruptedException interrupted) {
                return;
            }
            queue.drainTo(batch, maxSize - 1);
            long stops = batch.stream().filter(request -> request == STOP).count();
            batch.removeIf(request -> request == STOP);
            if (!batch.isEmpty()) {
                commit(batch);
            }
            if (stops > 0) {
                for (long extra = 1; extra < stops; extra++) {
                    queue.add(STOP);
                }
                return;
            }
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
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            running = List.copyOf(workers);
            running.forEach(worker -> queue.add(STOP));
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
