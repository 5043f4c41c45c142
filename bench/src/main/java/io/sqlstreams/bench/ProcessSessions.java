package io.sqlstreams.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One consumer group consuming in several {@link ScaleConsumerMain} processes, one session each, seen from the
 * harness: what each process reports about it on stdout. The harness starts the sessions, watches the handler calls
 * add up, and finishes them; it never passes anything from one consumer process to another.
 */
final class ProcessSessions {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final List<ConsumerProcess> processes;
    private final String group;
    private final long startedMicros;

    private ProcessSessions(List<ConsumerProcess> processes, String group, long startedMicros) {
        this.processes = processes;
        this.group = group;
        this.startedMicros = startedMicros;
    }

    /**
     * Sends {@code consume <stream> <group> <handler…>} to every process at once, then waits until each has its
     * session running.
     */
    static ProcessSessions start(List<ConsumerProcess> processes, String stream, String group, String handler)
            throws InterruptedException {
        for (ConsumerProcess process : processes) {
            process.command("consume " + stream + " " + group + " " + handler);
        }
        long first = Long.MAX_VALUE;
        for (ConsumerProcess process : processes) {
            first = Math.min(first, field(process.awaitLine(ScaleConsumerMain.STARTED + " " + group, START_TIMEOUT,
                    failures(group)), 2));
        }
        return new ProcessSessions(processes, group, first);
    }

    /** When the first session had started (its claim loop running), in epoch microseconds. */
    long startedMicros() {
        return startedMicros;
    }

    /** Handler calls so far over every process, as last reported (every 250 ms). */
    long handled() {
        return processes.stream().mapToLong(p -> p.lastLine(ScaleConsumerMain.HANDLED + " " + group)
                .map(line -> field(line, 2)).orElse(0L)).sum();
    }

    /**
     * Waits until {@code target} handler calls were reported, checking every process as it goes. Gives up when
     * nothing moved for {@code stall}, noting it in {@code details}, or when {@code limit} passed.
     *
     * @return whether the target was reached
     */
    boolean awaitHandled(long target, Duration stall, Optional<Duration> limit, List<String> details)
            throws InterruptedException {
        long start = System.nanoTime();
        long last = -1;
        long lastProgress = start;
        while (true) {
            processes.forEach(process -> check(process, group));
            long count = handled();
            long now = System.nanoTime();
            if (count >= target) {
                return true;
            }
            if (limit.isPresent() && now - start > limit.get().toNanos()) {
                return false;
            }
            if (count != last) {
                last = count;
                lastProgress = now;
            } else if (now - lastProgress > stall.toNanos()) {
                details.add("**STALLED** (" + group + "): handled " + count + " of " + target + ", no progress for "
                        + stall);
                return false;
            }
            Thread.sleep(50);
        }
    }

    /**
     * What every process reported when its session finished.
     *
     * @param handled    handler calls, summed
     * @param lastMicros the last handler call over every process, in epoch microseconds
     * @param counters   each process's session counters, {@code <process>: <counters>}
     */
    record Finished(long handled, long lastMicros, List<String> counters) {
    }

    /** Stops every process's session gracefully, all at once, and waits for each one's final report. */
    Finished finish(Duration timeout) throws InterruptedException {
        processes.forEach(process -> process.command("finish " + group));
        long handled = 0;
        long last = 0;
        List<String> counters = new ArrayList<>();
        for (ConsumerProcess process : processes) {
            String line = process.awaitLine(ScaleConsumerMain.FINISHED + " " + group, timeout, failures(group));
            handled += field(line, 2);
            last = Math.max(last, field(line, 3));
            counters.add(process.name() + ": " + line.split(" ", 5)[4].replace(',', ' '));
        }
        return new Finished(handled, last, counters);
    }

    /** The reports that say a command about {@code group} failed or its session stopped on its own. */
    static List<String> failures(String group) {
        return List.of(ScaleConsumerMain.FAILED + " " + group, HarnessLink.SESSION_FAILED + " " + group);
    }

    /** Fails when {@code process} exited or reported one of the {@link #failures} of {@code group}. */
    private static void check(ConsumerProcess process, String group) {
        for (String failure : failures(group)) {
            process.lastLine(failure).ifPresent(line -> {
                throw new IllegalStateException(process.name() + " reported " + line + "; see " + process.log());
            });
        }
        if (!process.isAlive()) {
            throw new IllegalStateException(process.describeExit());
        }
    }

    /** The {@code index}th space-separated field of {@code line}, a number. */
    static long field(String line, int index) {
        return Long.parseLong(line.split(" ")[index]);
    }
}
