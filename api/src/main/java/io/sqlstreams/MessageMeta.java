package io.sqlstreams;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * What a handler knows about the delivery it is running: available as {@link #current()} during
 * {@link MessageHandler#handle}, and injectable as an observer-method parameter.
 *
 * @param stream         the stream's name
 * @param group          the consumer group's name
 * @param messageId      the message's position in the stream
 * @param routingKey     the message's routing key, or null
 * @param messageKey     the message's key, or null
 * @param compactionRank the message's compaction rank, or null when it did not opt into compaction
 * @param createdAt      when the message was written to the stream
 * @param attempt        which run of this delivery this is, starting at 1; a delivery deferred before its
 *                       handler ran (its key was busy) has not run
 * @param delays         how many times a handler asked to run this delivery later ({@link Outcome#delay}) so far
 * @param options        the resolved options the delivery runs under (concurrency, timeout and retry all set)
 * @param headers        the headers the message was produced with ({@link ProduceOptions#headers()}); empty for none
 */
public record MessageMeta(String stream, String group, long messageId, String routingKey, String messageKey,
                          Long compactionRank, Instant createdAt, int attempt, int delays, MessageOptions options,
                          Map<String, String> headers) {

    public MessageMeta {
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }

    private static final ThreadLocal<MessageMeta> CURRENT = new ThreadLocal<>();

    /**
     * The due time a schedule produced this message for (see {@link SchedulerHandle}), the time of the run for
     * {@link SchedulerHandle#run}, else when the message was written.
     */
    public Instant scheduledAt() {
        return options != null && options.scheduledAt() != null ? options.scheduledAt() : createdAt;
    }

    /**
     * The delivery the calling thread is handling.
     *
     * @throws IllegalStateException outside a handler call
     */
    public static MessageMeta current() {
        MessageMeta meta = CURRENT.get();
        if (meta == null) {
            throw new IllegalStateException("MessageMeta.current() is only available inside a message handler");
        }
        return meta;
    }

    /** The delivery the calling thread is handling, or empty outside a handler call. */
    public static Optional<MessageMeta> find() {
        return Optional.ofNullable(CURRENT.get());
    }

    /**
     * Runs {@code action} with {@code meta} as the current delivery of this thread, restoring the previous
     * one afterwards. The engine calls this around every handler; applications rarely need it outside tests.
     */
    public static <V> V callWith(MessageMeta meta, Callable<V> action) throws Exception {
        MessageMeta previous = CURRENT.get();
        CURRENT.set(meta);
        try {
            return action.call();
        } finally {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        }
    }
}
