package io.sqlstreams;

/**
 * This process's part in the system manager: the {@code manager} worker (target 1) that one process of the
 * installation holds and that reconciles every other worker (each stream's janitor and vacuum, the system's own)
 * and sweeps expired liveness rows. Every consume session of the client takes part while it runs, unless
 * {@link ClientConfig#disableManager()}; {@link #run()} takes part on its own, for a dedicated manager process.
 * Whatever number of processes and threads take part, the worker's target decides how many hold it: 1 by default,
 * 0 (suspended) none, −1 every one.
 */
public interface ManagerHandle {

    /**
     * Takes part in the system manager on the calling thread until {@link #stop()} or an interrupt, then returns
     * normally (an interrupt stays set) with this process's claim released if no session still needs it. The first
     * claim attempt happens before it blocks: its failure is thrown (the installation missing, SQL0017, or the
     * database unreachable after retries); later failures are logged (SQL0065) and retried after a back-off, and
     * never end the call. Safe to call from many threads and processes at once.
     *
     * @throws SqlStreamsException the coded failure of the first claim attempt
     */
    void run();

    /** Ends every {@link #run()} of this client; consume sessions keep taking part while they run. */
    void stop();

    /** What this process's manager is doing now. */
    ManagerStatus status();
}
