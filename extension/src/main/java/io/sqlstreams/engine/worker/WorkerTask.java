package io.sqlstreams.engine.worker;

/**
 * The body of one worker tick (a janitor pass, a manager reconcile). A tick that throws counts as failed, except
 * SQL0106 (the worker's row is gone, with its owner): that ends the runner.
 */
@FunctionalInterface
public interface WorkerTask {
    void tick() throws Exception;
}
