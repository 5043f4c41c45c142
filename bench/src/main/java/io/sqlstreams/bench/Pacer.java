package io.sqlstreams.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongFunction;

import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;

/**
 * An open-loop producer: {@code total} messages at {@code rate} msg/s, message k scheduled at start + k / rate and
 * sent by caller k mod callers at that time or, when that caller is late, as soon as it is free (so a slow
 * producer shows up in the latency measured from the scheduled time, never as a lower offered rate). A caller
 * more than {@code giveUp} behind its schedule stops and counts the rest as unsent.
 */
final class Pacer {

    /**
     * What one caller did: the produce results, and for each the epoch micros at which produce() returned and how
     * long after its scheduled time that was (the producer's lag: waiting for a late caller, and the call itself).
     */
    static final class SentLog {
        final LongList ids;
        final LongList returnedMicros;
        final LongList lagMicros;
        long duplicates;
        long unsent;

        SentLog(int expected) {
            ids = new LongList(expected);
            returnedMicros = new LongList(expected);
            lagMicros = new LongList(expected);
        }
    }

    /** The whole run: every caller's log and the common start. */
    record Outcome(List<SentLog> logs, long startNanos, double seconds) {

        long acknowledged() {
            return logs.stream().mapToLong(l -> l.ids.size()).sum();
        }

        long duplicates() {
            return logs.stream().mapToLong(l -> l.duplicates).sum();
        }

        long unsent() {
            return logs.stream().mapToLong(l -> l.unsent).sum();
        }

        long[] sortedIds() {
            return LongList.sortedUnion(logs.stream().map(l -> l.ids).toList());
        }
    }

    private Pacer() {
    }

    /** Sends {@code total} payloads through {@code producer.produce} at {@code rate}, from {@code callers} threads. */
    static Outcome run(String name, Producer<BenchPayload> producer, int callers, double rate, long total,
                       Duration giveUp) throws Exception {
        return run(name, producer, callers, rate, total, giveUp, k -> ProduceOptions.none());
    }

    /** {@link #run}, payload {@code k} produced with {@code options.apply(k)}. */
    static Outcome run(String name, Producer<BenchPayload> producer, int callers, double rate, long total,
                       Duration giveUp, LongFunction<ProduceOptions> options) throws Exception {
        double periodNanos = 1e9 / rate;
        Duration expected = Duration.ofNanos((long) (total * periodNanos));
        long[] start = new long[1];
        List<Workers.Task<SentLog>> tasks = new ArrayList<>();
        for (int c = 0; c < callers; c++) {
            int caller = c;
            tasks.add(startNanos -> {
                start[0] = startNanos;
                SentLog log = new SentLog((int) (total / callers + 16));
                for (long k = caller; k < total; k += callers) {
                    long scheduled = startNanos + (long) (k * periodNanos);
                    long now = System.nanoTime();
                    if (now - scheduled > giveUp.toNanos()) {
                        log.unsent += (total - 1 - k) / callers + 1;
                        break;
                    }
                    while (now < scheduled) {
                        LockSupport.parkNanos(scheduled - now);
                        now = System.nanoTime();
                    }
                    long scheduledMicros = BenchClock.micros(scheduled);
                    ProduceResult result = producer.produce(BenchPayload.at(k, scheduledMicros), options.apply(k));
                    long returned = BenchClock.nowMicros();
                    if (result.duplicate()) {
                        log.duplicates++;
                    } else {
                        log.ids.add(result.id());
                        log.returnedMicros.add(returned);
                        log.lagMicros.add(returned - scheduledMicros);
                    }
                }
                return log;
            });
        }
        Workers.Outcome<SentLog> outcome = Workers.runTogether(name, expected.plus(giveUp), tasks);
        return new Outcome(outcome.values(), start[0], outcome.secondsUntilLast());
    }
}
