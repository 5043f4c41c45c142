package io.sqlstreams;

/**
 * A registered schedule. The system manager (every process that runs one) produces its messages; nothing runs
 * in this object.
 *
 * @param <T> the payload's type
 */
public interface SchedulerInstance<T> {
    /** The schedule's name. */
    String name();

    /** The stream its messages go to. */
    String stream();

    /** The payload's type, as registered. */
    Class<T> payloadType();

    /** The handle for its verbs. */
    SchedulerHandle handle();
}
