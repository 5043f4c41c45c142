package io.sqlstreams.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Consumer processes in a fixed number of slots, each running one {@link ConsumerProcess} at a time (the chaos lab's,
 * unless started with another {@link Launcher}). A killed process is replaced at once by a new one (a new name:
 * {@code c1}, {@code c2}, … in start order), and so is one that died on its own, which is counted.
 */
final class ConsumerFleet implements AutoCloseable {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    static final Duration BUSY_TIMEOUT = Duration.ofSeconds(60);

    /** Starts the process called {@code name}. */
    @FunctionalInterface
    interface Launcher {
        ConsumerProcess launch(String name) throws IOException;
    }

    private final Launcher launcher;
    private final Progress progress;
    private final ConsumerProcess[] slots;
    private final List<ConsumerProcess> everyProcess = new ArrayList<>();
    private final List<String> unexpectedExits = new ArrayList<>();

    private ConsumerFleet(int size, Launcher launcher, Progress progress) {
        this.launcher = launcher;
        this.progress = progress;
        this.slots = new ConsumerProcess[size];
    }

    /**
     * Starts {@code size} {@link ChaosConsumerMain} processes and waits until each has a running session.
     *
     * @param arguments a process's {@link ChaosConsumerMain} arguments, by its name
     * @param logs      where each process's stderr is kept
     */
    static ConsumerFleet start(int size, Function<String, List<String>> arguments, Path logs, Progress progress)
            throws IOException, InterruptedException {
        return start(size, name -> ConsumerProcess.start(name, arguments.apply(name), logs), progress);
    }

    /** Starts {@code size} processes through {@code launcher} and waits until each has reported ready. */
    static ConsumerFleet start(int size, Launcher launcher, Progress progress) throws IOException,
            InterruptedException {
        ConsumerFleet fleet = new ConsumerFleet(size, launcher, progress);
        try {
            for (int slot = 0; slot < size; slot++) {
                fleet.slots[slot] = fleet.spawn();
            }
            fleet.awaitReady();
            return fleet;
        } catch (IOException | InterruptedException | RuntimeException e) {
            fleet.close();
            throw e;
        }
    }

    int size() {
        return slots.length;
    }

    /** The process running in each slot now. */
    synchronized List<ConsumerProcess> processes() {
        return List.of(slots);
    }

    /**
     * SIGKILLs a consumer and starts its replacement; returns the killed one. The victim is the process in
     * {@code preferredSlot} if it has begun handling messages, else the first busy one after it: killing a JVM that
     * never ran a handler proves nothing. With none busy yet, it waits for one, up to {@link #BUSY_TIMEOUT}, then
     * kills the preferred one anyway.
     *
     * @return the slot whose process was killed, and that process
     */
    Victim kill(int preferredSlot) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + BUSY_TIMEOUT.toNanos();
        while (true) {
            synchronized (this) {
                for (int k = 0; k < slots.length; k++) {
                    int slot = (preferredSlot + k) % slots.length;
                    if (slots[slot].busy() || System.nanoTime() > deadline && k == 0) {
                        ConsumerProcess victim = slots[slot];
                        victim.kill();
                        slots[slot] = spawn();
                        return new Victim(slot, victim, slots[slot]);
                    }
                }
            }
            Thread.sleep(100);
        }
    }

    /**
     * One kill.
     *
     * @param slot        the slot
     * @param killed      the process killed
     * @param replacement the process started in its place
     */
    record Victim(int slot, ConsumerProcess killed, ConsumerProcess replacement) {
    }

    /** Replaces every process that exited although nobody killed or stopped it; each is counted. */
    synchronized void replaceExited() throws IOException {
        for (int slot = 0; slot < slots.length; slot++) {
            if (!slots[slot].isAlive()) {
                ConsumerProcess gone = slots[slot];
                unexpectedExits.add(gone.describeExit());
                slots[slot] = spawn();
                progress.note("  " + gone.name() + " exited on its own; replaced by " + slots[slot].name());
            }
        }
    }

    /** Asks every running process to stop gracefully, all at once; returns each one's final report. */
    synchronized List<String> stopAll(Duration timeout) {
        List<CompletableFuture<String>> stops = new ArrayList<>();
        for (ConsumerProcess process : slots) {
            stops.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return process.name() + ": " + process.stop(timeout);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    process.destroy();
                    return process.name() + ": interrupted while stopping; killed";
                }
            }));
        }
        return stops.stream().map(CompletableFuture::join).toList();
    }

    /** Processes ever started, replacements included. */
    synchronized int started() {
        return everyProcess.size();
    }

    /** Processes that exited without being killed or stopped. */
    synchronized List<String> unexpectedExits() {
        return List.copyOf(unexpectedExits);
    }

    /**
     * How many lines starting with {@code prefix} every process, replaced and killed ones included, reported: such
     * as {@link ChaosHandler#UNRECORDED} runs that failed because their start could not be written to the ledger.
     */
    synchronized long reports(String prefix) {
        return everyProcess.stream().mapToLong(process -> process.reports(prefix)).sum();
    }

    /** Every session failure any process reported, prefixed with its name. */
    synchronized List<String> sessionFailures() {
        return everyProcess.stream().flatMap(p -> p.sessionFailures().stream().map(f -> p.name() + ": " + f))
                .toList();
    }

    @Override
    public synchronized void close() {
        everyProcess.stream().filter(ConsumerProcess::isAlive).forEach(ConsumerProcess::destroy);
    }

    private ConsumerProcess spawn() throws IOException {
        String name = "c" + (everyProcess.size() + 1);
        ConsumerProcess process = launcher.launch(name);
        everyProcess.add(process);
        return process;
    }

    private void awaitReady() throws InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        for (ConsumerProcess process : slots) {
            process.awaitLine(HarnessLink.READY, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        }
    }
}
