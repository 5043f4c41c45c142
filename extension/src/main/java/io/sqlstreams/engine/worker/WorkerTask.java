package io.sqlstreams.engine.worker;

/** The body of one worker tick (a janitor pass, a manager reconcile). A tick that throws counts as failed. */
@FunctionalInterface
public interface WorkerTask {
    void tick() throws Exception;
}
