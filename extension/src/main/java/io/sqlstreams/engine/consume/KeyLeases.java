package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;

import io.sqlstreams.Concurrency;
import io.sqlstreams.engine.Engine;

/**
 * Message key leases: at most one in-flight delivery per key of a group under the exclusive and ordered
 * policies. The variant follows the message: a compacted one must still be its key's head (re-checked with a
 * fresh snapshot after taking the lease), an ordered one must have no unresolved predecessor, any other just
 * needs the key free. A lease lasts the delivery's timeout + grace + record margin.
 */
final class KeyLeases {
    /** The answer to one lease request. */
    enum Verdict { ACQUIRED, BUSY, SUPERSEDED }

    /** A lease request's answer and, when acquired, the token that releases it. */
    record Lease(Verdict verdict, String token) {
    }

    private final Engine engine;
    private final RegisteredGroup group;

    KeyLeases(Engine engine, RegisteredGroup group) {
        this.engine = engine;
        this.group = group;
    }

    /** Whether a delivery takes a key lease at all: a key-holding policy and a message key. */
    static boolean needed(Delivery delivery) {
        Concurrency policy = delivery.options().concurrency();
        return delivery.messageKey() != null && policy != null && policy.holdsKey();
    }

    /**
     * Asks for the delivery's key lease.
     *
     * @param ownLow  the claimant's own range (ownLow, ownHigh], whose same-key messages are chained in process;
     *                equal bounds for a delivery on the exception path
     */
    Lease take(Delivery delivery, long ownLow, long ownHigh, Duration duration) {
        String token = UUID.randomUUID().toString();
        Verdict verdict = engine.database().autoCommit("taking the key lease of message " + delivery.messageId()
                + " of " + group.describe(), connection -> {
            if (delivery.compactionRank() != null) {
                return takeOfHead(connection, delivery, token, duration);
            }
            if (delivery.options().concurrency() == Concurrency.ORDERED) {
                return takeInOrder(connection, delivery, token, duration, ownLow, ownHigh);
            }
            return takePlain(connection, delivery, token, duration);
        });
        return new Lease(verdict, verdict == Verdict.ACQUIRED ? token : null);
    }

    /** Releases a lease; a release that matches nothing means the run outlived its lease and may have overlapped. */
    void release(Delivery delivery, String token) {
        boolean released = engine.database().autoCommit("releasing the key lease of message " + delivery.messageId()
                + " of " + group.describe(), connection -> {
            try (PreparedStatement release = connection.prepareStatement(
                    engine.sql().forStream("release_key_lease", group.streamId()))) {
                release.setLong(1, group.groupId());
                release.setString(2, delivery.messageKey());
                release.setString(3, token);
                try (ResultSet row = release.executeQuery()) {
                    return row.next();
                }
            }
        });
        if (!released) {
            engine.diagnostics().logger().log(System.Logger.Level.WARNING, "the key lease of message "
                    + delivery.messageId() + " of " + group.describe() + " expired mid-run and was taken over;"
                    + " its run may have overlapped another delivery of the key");
        }
    }

    private Verdict takePlain(Connection connection, Delivery delivery, String token, Duration duration)
            throws SQLException {
        try (PreparedStatement take = connection.prepareStatement(
                engine.sql().forStream("take_key_lease", group.streamId()))) {
            bindLease(take, 1, delivery, token, duration);
            try (ResultSet row = take.executeQuery()) {
                return row.next() ? Verdict.ACQUIRED : Verdict.BUSY;
            }
        }
    }

    private Verdict takeOfHead(Connection connection, Delivery delivery, String token, Duration duration)
            throws SQLException {
        boolean current;
        boolean taken;
        try (PreparedStatement take = connection.prepareStatement(
                engine.sql().forStream("take_key_lease_of_head", group.streamId()))) {
            take.setString(1, delivery.messageKey());
            take.setLong(2, delivery.messageId());
            bindLease(take, 3, delivery, token, duration);
            try (ResultSet row = take.executeQuery()) {
                row.next();
                current = row.getBoolean(1);
                taken = row.getBoolean(2);
            }
        }
        if (!current) {
            return Verdict.SUPERSEDED;
        }
        if (!taken) {
            return Verdict.BUSY;
        }
        try (PreparedStatement recheck = connection.prepareStatement(
                engine.sql().forStream("drop_key_lease_if_superseded", group.streamId()))) {
            recheck.setLong(1, group.groupId());
            recheck.setString(2, delivery.messageKey());
            recheck.setString(3, token);
            recheck.setString(4, delivery.messageKey());
            recheck.setLong(5, delivery.messageId());
            try (ResultSet row = recheck.executeQuery()) {
                return row.next() ? Verdict.SUPERSEDED : Verdict.ACQUIRED;
            }
        }
    }

    private Verdict takeInOrder(Connection connection, Delivery delivery, String token, Duration duration,
                                long ownLow, long ownHigh) throws SQLException {
        try (PreparedStatement take = connection.prepareStatement(
                engine.sql().forStream("take_key_lease_in_order", group.streamId()))) {
            take.setLong(1, group.groupId());
            take.setString(2, delivery.messageKey());
            take.setLong(3, delivery.messageId());
            take.setLong(4, group.groupId());
            take.setString(5, delivery.messageKey());
            take.setLong(6, delivery.messageId());
            take.setLong(7, ownLow);
            take.setLong(8, ownHigh);
            bindLease(take, 9, delivery, token, duration);
            try (ResultSet row = take.executeQuery()) {
                row.next();
                return row.getBoolean(1) ? Verdict.ACQUIRED : Verdict.BUSY;
            }
        }
    }

    private void bindLease(PreparedStatement take, int first, Delivery delivery, String token, Duration duration)
            throws SQLException {
        take.setLong(first, group.groupId());
        take.setString(first + 1, delivery.messageKey());
        take.setString(first + 2, token);
        take.setLong(first + 3, FreshClaimer.micros(duration));
    }
}
