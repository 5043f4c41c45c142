package io.sqlstreams;

/**
 * How {@link SchedulerHandle#run} produces a schedule's payload now.
 *
 * @param concurrency the message's concurrency: {@link Concurrency#PARALLEL} when null, or
 *                    {@link Concurrency#EXCLUSIVE} to wait for a run of the schedule still going
 */
public record ScheduleRunOptions(Concurrency concurrency) {
    private static final ScheduleRunOptions DEFAULTS = new ScheduleRunOptions(null);

    public static ScheduleRunOptions defaults() {
        return DEFAULTS;
    }

    public Concurrency resolvedConcurrency() {
        return concurrency == null ? Concurrency.PARALLEL : concurrency;
    }

    /** @throws InvalidConfigurationException (SQL0108) for {@link Concurrency#ORDERED} */
    public void validate() {
        Violations violations = new Violations();
        violations.require(concurrency != Concurrency.ORDERED, "scheduleRunOptions.concurrency",
                concurrency == null ? null : concurrency.wireName(),
                "must be parallel or exclusive");
        violations.throwIfAny();
    }
}
