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
    /** What {@link #CURRENT} holds during a {@link BatchHandler} call, which handles no single delivery. */
    private static final MessageMeta BATCH_CALL =
            new MessageMeta(null, null, 0, null, null, null, null, 0, 0, null, null);

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
     * @throws IllegalStateException outside a handler call, and inside a {@link BatchHandler} call (whether its list
     *                               holds several items or one): a batch call handles no single delivery, and each
     *                               {@link BatchItem#meta()} is its item's
     */
    public static MessageMeta current() {
        MessageMeta meta = CURRENT.get();
        if (meta == BATCH_CALL) {
            throw new IllegalStateException("MessageMeta.current() names no single delivery inside a BatchHandler"
                    + " call; read each BatchItem's meta()");
        }
        if (meta == null) {
            throw new IllegalStateException("MessageMeta.current() is only available inside a message handler");
        }
        return meta;
    }

    /** The delivery the calling thread is handling, or empty outside a handler call and inside a batch call. */
    public static Optional<MessageMeta> find() {
        MessageMeta meta = CURRENT.get();
        return meta == BATCH_CALL ? Optional.empty() : Optional.ofNullable(meta);
    }

    /**
     * Runs {@code action} with {@code meta} as the current delivery of this thread, restoring the previous
     * one afterwards. The engine calls this around every handler; applications rarely need it outside tests.
     */
    public static <V> V callWith(MessageMeta meta, Callable<V> action) throws Exception {
        return callAs(meta, action);
    }

    /**
     * Runs {@code action} as a {@link BatchHandler} call: inside it {@link #current()} throws and {@link #find()} is
     * empty, and afterwards the previous delivery is current again. The engine calls this around every batch call.
     */
    public static <V> V callForBatch(Callable<V> action) throws Exception {
        return callAs(BATCH_CALL, action);
    }

    private static <V> V callAs(MessageMeta meta, Callable<V> action) throws Exception {
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
