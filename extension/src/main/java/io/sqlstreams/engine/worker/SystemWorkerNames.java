package io.sqlstreams.engine.worker;

/** The names of the system's own worker rows, each target 1. */
public final class SystemWorkerNames {
    public static final String MANAGER = "manager";
    public static final String CONSUMER_GROUP_JANITOR = "consumer_group_janitor";
    public static final String METRICS_COLLECTOR = "metrics_collector";
    public static final String ALERT_CHECKS = "alert_checks";
    public static final String SCHEDULE_PRODUCER = "schedule_producer";

    private SystemWorkerNames() {
    }
}
