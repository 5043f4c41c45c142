package io.sqlstreams;

import java.util.List;

/**
 * A named schedule: a stored cron expression, target stream and payload that the system manager turns into one
 * message per due time, exactly once however many processes run a manager. Obtained with
 * {@link SqlStreams#scheduler(String)}; no I/O until a verb is called.
 */
public interface SchedulerHandle {
    /** The schedule's name. */
    String name();

    /**
     * Declares the schedule (newest declaration wins; a differing one logs SQL0062) on an existing stream.
     * {@code expression}: a 5-field cron spec ({@code 30 4 * * 1}), a descriptor ({@code @hourly}, {@code @daily},
     * {@code @weekly}, {@code @monthly}, {@code @yearly}) or {@code @every <duration>}, optionally after
     * {@code TZ=Area/City } (else UTC); its times must be at least a minute apart. A new schedule, or one whose
     * expression changed, is due next at the expression's first time after the database's clock. Warns SQL0058
     * when the stream's delivery log mode is not {@code all}.
     *
     * @param payload its type needs {@link SchemaVersion}; encoded once, as every message's payload
     * @throws InvalidConfigurationException (SQL0108) for a bad expression or config, nothing stored
     * @throws SqlStreamsException           SQL0005 when the stream does not exist, SQL0025 when the declaration
     *                                       could not finish (nothing stored; retry)
     */
    <T> SchedulerInstance<T> register(String stream, String expression, T payload, SchedulerConfig config);

    /** The schedule as stored; SQL0013 when it is not registered. */
    Schedule get();

    /** Stops producing (idempotent); SQL0013 when it is not registered. */
    void suspend();

    /**
     * Produces again from the database's current time on: missed due times are dropped (idempotent on a schedule
     * that is not suspended); SQL0013 when it is not registered.
     */
    void unsuspend();

    /**
     * Produces the stored payload now, outside the expression and even while suspended; moves no scheduled time.
     * The message's {@code scheduledAt} is the time of the run. SQL0013 when it is not registered.
     */
    ProduceResult run(ScheduleRunOptions options);

    /**
     * Per consumer group of the schedule's stream, how its messages fared, from the delivery log (successes are
     * counted only when the stream's delivery log mode is {@code all}); SQL0013 when it is not registered.
     */
    List<ScheduleGroupStatus> status();

    /**
     * The schedule's newest {@code limit} messages still in its stream, newest first, each with its outcome per
     * consumer group; SQL0013 when it is not registered, SQL0108 when {@code limit} is below 1.
     */
    List<ScheduledMessage> messages(int limit);

    /**
     * Deletes the schedule; its messages stay. Needs {@link ClientConfig#allowDestroy()} (SQL0008); SQL0013 when
     * it is not registered.
     */
    void destroy();
}
