package io.sqlstreams.engine.worker;

/**
 * The body of one worker tick (a janitor pass, a manager reconcile). A tick that throws counts as failed, except
 * SQL0106 (the worker's row is gone, with its owner): that ends the runner.
 */
@FunctionalInterface
public interface WorkerTask {
    void tick() throws Exception;

    /**
     * Told after a claim was declined, with the worker's target then (0 when suspended); whether the runner should
     * try again after its poll rate. A runner told not to ends quietly, as if stopped, for its owner to start anew.
     */
    default boolean declined(int targetInstances) {
        return true;
    }
}
