package io.sqlstreams;

import java.util.Optional;

/**
 * What this process's system manager is doing.
 *
 * @param state          its state
 * @param workersRunning how many workers it runs now (a stream's janitor, the system's binding janitor, ...)
 * @param lastError      the error that stopped it most recently, while it is {@link State#RESTARTING}
 */
public record ManagerStatus(State state, int workersRunning, Optional<String> lastError) {

    /** The manager's state in this process. */
    public enum State {
        /** nothing in this process takes part: no session runs, no {@link ManagerHandle#run()} is active */
        STOPPED,
        /** taking part, but another process holds the manager (or this one is about to claim it) */
        WAITING,
        /** this process holds the manager and reconciles the installation's workers */
        HOLDING,
        /** the manager's target is 0: no process reconciles anything (SQL0035) */
        SUSPENDED,
        /** it stopped on an error (SQL0065) and claims again after a back-off */
        RESTARTING,
        /** {@link ClientConfig#disableManager()} is set: consume sessions of this client run no manager */
        DISABLED
    }

    public ManagerStatus {
        lastError = lastError == null ? Optional.empty() : lastError;
    }
}
