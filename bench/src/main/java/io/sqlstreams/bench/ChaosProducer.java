package io.sqlstreams.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.sqlstreams.Concurrency;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;

/**
 * The chaos lab's producer: messages {@code 0 … total-1} at a steady rate from a few threads, each with the key,
 * policy and payload its {@link ChaosPlan} gives it. Every message carries an idempotency key, so a produce that
 * fails (a terminated connection, a restarting server) is simply tried again until it is acknowledged, without
 * ever writing a message twice.
 */
final class ChaosProducer {
    static final int CALLERS = 4;
    private static final Duration RETRY_PAUSE = Duration.ofMillis(200);
    /** A message not acknowledged after this long fails the run: the server is not coming back. */
    private static final Duration GIVE_UP = Duration.ofMinutes(3);

    /**
     * What the producer did.
     *
     * @param acknowledged every sequence number acknowledged, ascending
     * @param duplicates   acknowledgements that said duplicate (a retry whose first try had committed)
     * @param retries      produce calls that failed and were tried again
     * @param seconds      from the first send to the last acknowledgement
     */
    record Outcome(long[] acknowledged, long duplicates, long retries, double seconds) {
    }

    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();

    /** Messages acknowledged so far, for progress lines. */
    long acknowledgedSoFar() {
        return acknowledged.get();
    }

    /** Failed produce calls so far. */
    long retriesSoFar() {
        return retries.get();
    }

    Outcome run(Producer<BenchPayload> producer, ChaosPlan plan, long total, double rate, String runId)
            throws Exception {
        double periodNanos = 1e9 / rate;
        List<Workers.Task<LongList>> tasks = new ArrayList<>();
        for (int c = 0; c < CALLERS; c++) {
            int caller = c;
            tasks.add(startNanos -> {
                LongList sent = new LongList((int) (total / CALLERS + 16));
                for (long seq = caller; seq < total; seq += CALLERS) {
                    long scheduled = startNanos + (long) (seq * periodNanos);
                    for (long now = System.nanoTime(); now < scheduled; now = System.nanoTime()) {
                        LockSupport.parkNanos(scheduled - now);
                    }
                    if (produce(producer, plan.message(seq), runId, BenchClock.micros(scheduled)).duplicate()) {
                        duplicates.incrementAndGet();
                    }
                    sent.add(seq);
                    acknowledged.incrementAndGet();
                }
                return sent;
            });
        }
        Duration expected = Duration.ofNanos((long) (total * periodNanos));
        Workers.Outcome<LongList> outcome = Workers.runTogether("chaos-producer", expected.plus(GIVE_UP), tasks);
        return new Outcome(LongList.sortedUnion(outcome.values()), duplicates.get(), retries.get(),
                outcome.secondsUntilLast());
    }

    private ProduceResult produce(Producer<BenchPayload> producer, ChaosPlan.Message message, String runId,
                                  long scheduledMicros) throws InterruptedException {
        ProduceOptions options = options(message, runId);
        BenchPayload payload = BenchPayload.at(message.seq(), scheduledMicros);
        long deadline = System.nanoTime() + GIVE_UP.toNanos();
        while (true) {
            try {
                return producer.produce(payload, options);
            } catch (RuntimeException e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("message " + message.seq() + " was not acknowledged within "
                            + GIVE_UP, e);
                }
                retries.incrementAndGet();
            }
            Thread.sleep(RETRY_PAUSE.toMillis());
        }
    }

    /** The key, policy and idempotency key {@code message} is produced with. */
    static ProduceOptions options(ChaosPlan.Message message, String runId) {
        ProduceOptions.Builder options = ProduceOptions.builder().idempotencyKey(runId + "-" + message.seq());
        if (message.policy() != Concurrency.PARALLEL) {
            options.messageKey(message.key())
                    .message(MessageOptions.builder().concurrency(message.policy()).build());
        }
        return options.build();
    }
}
