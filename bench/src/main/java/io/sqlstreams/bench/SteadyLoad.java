package io.sqlstreams.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.Producer;

/**
 * Steady produce + consume in named phases: an open-loop {@link Pacer} at a fixed rate on a thread of its own for
 * the whole run, and a handler that records each message's end-to-end latency (scheduled send → handler entry)
 * into the phase running when the handler was entered. Phases follow each other without a gap; the caller times
 * them.
 */
final class SteadyLoad {
    /** A producer this far behind its schedule gives up; the rest counts as unsent. */
    static final Duration GIVE_UP = Duration.ofSeconds(60);

    /** One phase: what was handled while it ran, between its start and end ({@link System#nanoTime()}). */
    static final class Phase {
        private final String name;
        private final HandledLog log;
        private final long startNanos;
        private volatile long endNanos;

        private Phase(String name, long expectedPerThread) {
            this.name = name;
            this.log = new HandledLog(expectedPerThread, true);
            this.startNanos = System.nanoTime();
        }

        String name() {
            return name;
        }

        HandledLog log() {
            return log;
        }

        double seconds() {
            return ((endNanos == 0 ? System.nanoTime() : endNanos) - startNanos) / 1e9;
        }

        /** Messages handled per second while the phase ran. */
        double throughput() {
            return log.count() / seconds();
        }
    }

    private final int rate;
    private final int concurrency;
    private final List<Phase> phases = new ArrayList<>();
    private volatile Phase current;
    private CompletableFuture<Pacer.Outcome> produced;

    /**
     * @param rate        offered msg/s
     * @param concurrency the sessions' message concurrency, to size the handler threads' records
     */
    SteadyLoad(int rate, int concurrency) {
        this.rate = rate;
        this.concurrency = concurrency;
    }

    /** Records into the current phase; {@link #begin} one before producing. */
    MessageHandler<BenchPayload> handler() {
        return payload -> current.log.record(MessageMeta.current().messageId(),
                BenchClock.nowMicros() - payload.sentAtMicros());
    }

    /** Starts producing {@code rate × length} messages through {@code producer}, one caller per 50 msg/s (16–512). */
    void produce(String name, Producer<BenchPayload> producer, Duration length) {
        long total = Math.max(1, Math.round(rate * (length.toNanos() / 1e9)));
        produced = CompletableFuture.supplyAsync(() -> {
            try {
                return Pacer.run(name, producer, SustainedScenario.callers(rate), rate, total, GIVE_UP);
            } catch (Exception e) {
                throw new IllegalStateException("the producer failed: " + e, e);
            }
        }, runnable -> {
            Thread thread = new Thread(runnable, "bench-" + name + "-pacer");
            thread.setDaemon(true);
            thread.start();
        });
    }

    /** Ends the current phase and starts {@code name}. */
    synchronized Phase begin(String name) {
        Phase next = new Phase(name, (long) rate * 60 / concurrency + 1024);
        if (current != null) {
            current.endNanos = next.startNanos;
        }
        phases.add(next);
        current = next;
        return next;
    }

    /** The phase running now. */
    Phase current() {
        return current;
    }

    /** Every phase so far, in order. */
    synchronized List<Phase> phases() {
        return List.copyOf(phases);
    }

    /** Messages handled over every phase. */
    long handled() {
        return phases().stream().mapToLong(phase -> phase.log.count()).sum();
    }

    /** Waits for the producer to finish. */
    Pacer.Outcome awaitProduced() throws InterruptedException, ExecutionException {
        return produced.get();
    }

    /**
     * Waits until {@code target} messages were handled over every phase, at most {@code timeout}, checking the
     * sessions every second; false when the time ran out first.
     */
    boolean awaitHandled(long target, Duration timeout, GroupSessions sessions) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Phase last = current;
        long before = handled() - last.log.count();
        boolean all;
        while (!(all = last.log.awaitCount(target - before, Duration.ofSeconds(1))) && System.nanoTime() < deadline) {
            sessions.checkRunning();
        }
        return all;
    }

    /** Every id handled, ascending, repeats included. Read after the sessions stopped. */
    long[] sortedHandledIds() {
        return phases().stream().flatMapToLong(phase -> Arrays.stream(phase.log.sortedIds())).sorted().toArray();
    }

    /** The latencies of {@code phase} in microseconds. */
    static long[] latencies(Phase phase) {
        return phase.log.pairs()[1];
    }
}
