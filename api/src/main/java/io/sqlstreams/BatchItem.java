package io.sqlstreams;

/**
 * One message of a {@link BatchHandler}'s batch.
 *
 * @param <T> the payload type
 */
public interface BatchItem<T> {

    T message();

    /**
     * The delivery, as {@link MessageMeta#current()} describes it to a handler of one message; inside a batch call
     * this is the only way to it ({@code current()} throws there).
     */
    MessageMeta meta();

    /**
     * Fails this item as if its handler had thrown {@code cause}: {@link Outcome#terminal}, {@link Outcome#delay} or
     * any other exception, which retries it. The batch then runs again one item at a time.
     */
    void fail(Throwable cause);
}
