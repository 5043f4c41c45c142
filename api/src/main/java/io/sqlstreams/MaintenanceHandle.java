package io.sqlstreams;

/**
 * One of a stream's maintenance workers ({@link StreamHandle#janitor()}, {@link StreamHandle#vacuum()}), for an
 * operator: its status, and the switch that stops or allows it. No I/O until a verb is called; every verb resolves
 * the stream by name when called. Registering the stream again keeps what an operator set here.
 */
public interface MaintenanceHandle {

    /** The worker's name, such as {@code stream_janitor}. */
    String worker();

    /**
     * Suspends the worker: its target becomes 0, so no instance may claim it. Does not wait for running work: an
     * instance still running stops at its next heartbeat ({@link WorkerSnapshot#liveInstances()} says when none
     * is left). A change appends a {@code worker_config_log} snapshot; suspending a suspended worker changes
     * nothing.
     *
     * @return the worker as it stands after the change
     * @throws SqlStreamsException SQL0005 when the stream is not registered, SQL0106 when it has no row for this
     *                             worker (registering the stream again declares it); SQL0109 for an invalid name
     */
    WorkerSnapshot suspend();

    /**
     * Allows the worker one instance again (target 1). A running manager claims it on its next reconciliation;
     * without one the worker stays {@link WorkerStatus#UNCLAIMED}. A change appends a {@code worker_config_log}
     * snapshot; unsuspending a worker whose target is already 1 changes nothing.
     *
     * @return the worker as it stands after the change
     * @throws SqlStreamsException SQL0005 when the stream is not registered, SQL0106 when it has no row for this
     *                             worker; SQL0109 for an invalid name
     */
    WorkerSnapshot unsuspend();

    /**
     * The worker's target, live instances, failure streak and status.
     *
     * @throws SqlStreamsException SQL0005 when the stream is not registered, SQL0106 when it has no row for this
     *                             worker; SQL0109 for an invalid name
     */
    WorkerSnapshot status();
}
