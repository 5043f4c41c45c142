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

    /** Stops this instance's running session gracefully, if it has one, and waits until it has stopped. */
    void stop();
}
