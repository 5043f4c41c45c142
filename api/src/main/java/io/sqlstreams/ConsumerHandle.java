package io.sqlstreams;

import java.util.List;
import java.util.Optional;

/**
 * A consumer group on a stream, by name: no I/O until a verb is called.
 *
 * @param <T> the payload type the group reads; only rows of its {@link SchemaVersion} reach it
 */
public interface ConsumerHandle<T> {

    String stream();

    String name();

    /**
     * Declares the group: creates its row and cursor on first registration (placed by
     * {@link ConsumerConfig#start()}, read once) and writes the declaration to the group's worker rows. Newest
     * declaration wins; an identical one writes nothing, a differing one logs SQL0059 with the difference.
     *
     * @throws SqlStreamsException           SQL0005 when the stream is not registered
     * @throws InvalidNameException          (SQL0109) for a bad group name
     * @throws InvalidConfigurationException (SQL0108) for a bad declaration or a payload type without
     *                                       {@link SchemaVersion}
     */
    ConsumerInstance<T> register(ConsumerConfig config);

    /** {@link #register(ConsumerConfig)} with the empty declaration: every field at its default. */
    default ConsumerInstance<T> register() {
        return register(ConsumerConfig.defaults());
    }

    /** The group's row, or empty when the stream or the group is not registered. */
    Optional<Consumer> get();

    /** The group's worker rows with their stored, sparse configuration documents. */
    List<Worker> workers();

    /**
     * Deletes the group: its cursor, leases, exception and delivery rows and workers; the stream and its
     * messages stay. Needs {@link ClientConfig#allowDestroy()} (SQL0008). Without
     * {@link DestroyOptions#force()} it is refused while an instance is live (SQL0015) or delivery rows remain
     * (SQL0016).
     */
    void destroy(DestroyOptions options);

    /**
     * Runs {@link #destroy}'s checks and deletes nothing: returns when a destroy with these options would go ahead
     * now, and throws what it would throw otherwise (SQL0008, SQL0005, SQL0014, SQL0015, SQL0016).
     */
    void checkDestroy(DestroyOptions options);

    /** The group's routing bindings. No I/O. */
    BindingHandle binding();

    /** Both layers of the group's configuration side by side, with its cursor and delivery state. */
    ConsumerInspection inspect();

    /**
     * Whether an open transaction that produced into the stream holds back this group's fresh claims, and which
     * ({@link StreamHandle#fences()}).
     *
     * @throws SqlStreamsException SQL0005 when the stream is absent, SQL0014 when the group is
     */
    GroupFence fence();

    /** The group's built-in metrics (cursors, backlog, exception rows, open leases). No I/O. */
    ResourceMetricsHandle metrics();

    /** The group's alerts (no built-in alert is owned by a group today). No I/O. */
    AlertsHandle alerts();

    /** The group's dead letters: list, count, group by error, redrive, discard. No I/O. */
    DeadLettersHandle deadLetters();

    /**
     * The group's ordered message keys whose later messages wait behind an unresolved earlier one (retrying, in
     * flight or deferred), the earliest blocking message first, at most {@code limit} (1 to {@link PageRequest#MAX_LIMIT},
     * else SQL0152). A dead message never blocks its key: dead resolves it and its followers run.
     */
    List<BlockedKey> blockedKeys(int limit);

    /**
     * Pauses the group: every instance stops claiming within its ConfigRefreshInterval; what it holds finishes
     * and commits, and its sessions stay live (health reports them paused). Stored with the group, so it holds
     * across restarts until {@link #resume}. Logged as SQL0150.
     *
     * @param actor who asks for it, recorded as given; null records this client's identity
     * @return the recorded action, or empty when the group was already paused (nothing is written)
     */
    Optional<OperatorAction> pause(String actor);

    /**
     * Resumes a paused group: its instances claim again within their ConfigRefreshInterval and drain what waited.
     * Logged as SQL0151.
     *
     * @return the recorded action, or empty when the group was not paused (nothing is written)
     */
    Optional<OperatorAction> resume(String actor);

    /** The pause in force, or empty when the group is not paused. */
    Optional<OperatorAction> paused();

    /** The group's audit trail of operator actions, newest first, at most {@code limit} (1 to 1,000). */
    List<OperatorAction> actions(int limit);
}
