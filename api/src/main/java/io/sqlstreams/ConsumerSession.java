package io.sqlstreams;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * One running consume session. {@link #close()} stops claiming, waits for in-flight handlers up to the
 * session's shutdown timeout, settles its open ranges and releases its liveness rows.
 */
public interface ConsumerSession extends AutoCloseable {

    /** The session's id (a UUIDv7), as it appears in its log lines. */
    String id();

    /**
     * Waits until the session has registered its liveness and begun claiming.
     *
     * @return false when {@code timeout} passed first
     * @throws SqlStreamsException when the session failed to start
     */
    boolean awaitStarted(Duration timeout) throws InterruptedException;

    /** True until the session has stopped, gracefully or not. */
    boolean isRunning();

    /**
     * True while the session's group is paused ({@link ConsumerHandle#pause}) as of its last declaration refresh:
     * it stays live and claims nothing.
     */
    boolean isPaused();

    /** Why the session stopped, when it stopped with a failure. */
    Optional<Throwable> failure();

    /** The session's counters so far. */
    SessionCounters counters();

    /**
     * When the session last renewed its liveness rows (at start, then every half InstanceTTL): a heartbeat older
     * than InstanceTTL means the session is stuck, or cut off from PostgreSQL for longer than a blip.
     */
    Instant lastHeartbeat();

    /**
     * Stops the session gracefully, waiting at most {@code timeout} for in-flight handlers (instead of the
     * session's shutdown timeout).
     */
    void stop(Duration timeout);

    /** Stops the session gracefully within its shutdown timeout. */
    @Override
    void close();
}
