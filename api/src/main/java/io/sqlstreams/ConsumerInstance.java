package io.sqlstreams;

/**
 * A registered consumer group, ready to run sessions in this process. One instance runs one session at a
 * time; a second concurrent session is refused with {@link AlreadyConsumingException} (SQL0001).
 *
 * @param <T> the payload type
 */
public interface ConsumerInstance<T> {

    /**
     * Runs a session, blocking the calling thread until {@link #stop()} is called or the thread is
     * interrupted; the session then drains gracefully and this returns normally (an interrupt stays set). A
     * session that fails (its stream or group destroyed, its worker suspended, one of its loops ended) throws.
     */
    void consume(MessageHandler<T> handler, ConsumeOptions options);

    /** Starts a session on the host's threads and returns at once; {@link ConsumerSession#close()} drains it. */
    ConsumerSession start(MessageHandler<T> handler, ConsumeOptions options);

    /**
     * {@link #consume(MessageHandler, ConsumeOptions)} with a handler that writes inside the library's transaction:
     * a claimed range runs message after message in id order on one connection, each message under a savepoint,
     * and its outcome rows commit with the handler's writes in one commit. A retried message runs in a transaction
     * of its own with its outcome. MessageConcurrency is the number of ranges (transactions) at a time.
     */
    void consume(TransactionalHandler<T> handler, ConsumeOptions options);

    /** {@link #start(MessageHandler, ConsumeOptions)} for a {@link TransactionalHandler}. */
    ConsumerSession start(TransactionalHandler<T> handler, ConsumeOptions options);

    /**
     * {@link #consume(TransactionalHandler, ConsumeOptions)} with a handler that takes a claimed range's messages as
     * one list ({@link BatchHandler}): one call and one commit per range while nothing fails.
     */
    void consumeBatches(BatchHandler<T> handler, ConsumeOptions options);

    /** {@link #start(MessageHandler, ConsumeOptions)} for a {@link BatchHandler}. */
    ConsumerSession startBatches(BatchHandler<T> handler, ConsumeOptions options);

    /** Stops this instance's running session gracefully, if it has one, and waits until it has stopped. */
    void stop();
}
