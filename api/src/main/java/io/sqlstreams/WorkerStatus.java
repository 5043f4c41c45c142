package io.sqlstreams;

/** What a worker is doing, as {@link MaintenanceHandle#status()} reads it from its rows. */
public enum WorkerStatus implements WireNamed {
    /** Its target is 0: no instance may claim it; instances still running stop at their next heartbeat. */
    SUSPENDED("suspended"),
    /** Its target allows work, but no instance holds a live claim (no manager runs it, or its holder died). */
    UNCLAIMED("unclaimed"),
    /** A live instance holds it and its last tick succeeded. */
    CLAIMED("claimed"),
    /** A live instance holds it and is in a streak of failed ticks. */
    FAILING("failing");

    private final String wireName;

    WorkerStatus(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }

    /**
     * The status of a worker with {@code targetInstances}, {@code liveInstances} and the highest failure streak
     * {@code attempts} among its live instances: suspended first (whatever still runs is stopping), then unclaimed,
     * then failing or claimed.
     */
    public static WorkerStatus of(int targetInstances, int liveInstances, int attempts) {
        if (targetInstances == 0) {
            return SUSPENDED;
        }
        if (liveInstances == 0) {
            return UNCLAIMED;
        }
        return attempts > 0 ? FAILING : CLAIMED;
    }
}
