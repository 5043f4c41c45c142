package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.engine.Engine;
import io.sqlstreams.engine.sql.Transactions;

/**
 * One claim poll of a group: reclaim an expired range first (quarantining it after MaxRangeReclaims), else
 * claim fresh ids under the snapshot fence. The fence: an observation statement reads the visible head and
 * allocates a transaction id after its snapshot; ids up to that head are claimable only once every older
 * transaction has finished (the snapshot's xmin has passed the observed xid), because a producer still running
 * may own a lower id than the visible head. The claim transaction locks the cursor row, claims up to the
 * provable head, stores the observation for later polls, and commits even when nothing was provable.
 */
final class FreshClaimer {
    private final Engine engine;
    private final RegisteredGroup group;
    private final int schemaVersion;
    private final RangeReader reader;
    private final SessionCounterSet counters;

    FreshClaimer(Engine engine, RegisteredGroup group, int schemaVersion, RangeReader reader, SessionCounterSet counters) {
        this.engine = engine;
        this.group = group;
        this.schemaVersion = schemaVersion;
        this.reader = reader;
        this.counters = counters;
    }

    /**
     * What one poll found: a range to process, or nothing, in which case {@code caughtUp} says whether the
     * group has nothing left (wait a poll period) or the fence has yet to pass (poll again soon).
     */
    record Poll(ClaimedRange range, boolean caughtUp) {
        static final Poll CAUGHT_UP = new Poll(null, true);
        static final Poll AGAIN = new Poll(null, false);
    }

    Poll poll(int limit, ConsumerConfig config, Duration leaseDuration) {
        Observation observed = engine.database().autoCommit("observing " + group.describe(), this::observe);
        if (observed.leaseExpired()) {
            Poll reclaimed = reclaim(config, leaseDuration);
            if (reclaimed != null) {
                return reclaimed;
            }
        }
        if (observed.idle()) {
            return Poll.CAUGHT_UP;
        }
        Instant claimStarted = engine.environment().clock().instant();
        Leased leased = engine.database().withRetry("claiming for " + group.describe(), () -> {
            try (Connection connection = engine.database().dataSource().getConnection()) {
                return Transactions.run(connection, tx -> claim(tx, observed, limit, leaseDuration));
            }
        });
        if (leased == null) {
            return observed.head() > observed.claimed() ? Poll.AGAIN : Poll.CAUGHT_UP;
        }
        List<Delivery> deliveries = engine.database().autoCommit("reading a claimed range of " + group.describe(),
                connection -> reader.read(connection, leased.low(), leased.high(), config));
        counters.claimed.add(deliveries.size());
        return new Poll(new ClaimedRange(leased.token(), leased.low(), leased.high(), claimStarted.plus(leaseDuration),
                deliveries), false);
    }

    private Observation observe(Connection connection) throws SQLException {
        try (PreparedStatement observe = connection.prepareStatement(engine.sql().forStream("observe", group.streamId()))) {
            observe.setLong(1, group.groupId());
            observe.setLong(2, group.groupId());
            try (ResultSet row = observe.executeQuery()) {
                if (!row.next()) {
                    throw GroupRows.notFound(group.streamName(), group.groupName());
                }
                return new Observation(row.getLong(1), row.getLong(2), row.getLong(3), row.getLong(4), row.getBoolean(5),
                        row.getString(6));
            }
        }
    }

    /**
     * The claim transaction: lock the cursor, move it as far as the fences prove, lease the new range. The
     * range's rows are read after it commits (a later snapshot still sees every row the fence proved), so the
     * cursor row is locked only for these two statements.
     */
    private Leased claim(Connection tx, Observation observed, int limit, Duration leaseDuration) throws SQLException {
        long claimed;
        long provable;
        boolean pendingPassed;
        try (PreparedStatement lock = tx.prepareStatement(engine.sql().forStream("lock_cursor", group.streamId()))) {
            lock.setString(1, observed.xid());
            lock.setString(2, observed.xid());
            lock.setLong(3, group.groupId());
            try (ResultSet row = lock.executeQuery()) {
                if (!row.next()) {
                    throw GroupRows.notFound(group.streamName(), group.groupName());
                }
                claimed = row.getLong(1);
                provable = row.getLong(2);
                if (row.getBoolean(6)) {
                    provable = Math.max(provable, observed.head());
                }
                pendingPassed = row.getBoolean(7);
                if (pendingPassed) {
                    provable = Math.max(provable, row.getLong(3));
                }
            }
        }
        long newClaimed = Math.max(claimed, Math.min(claimed + limit, provable));
        String token = null;
        try (PreparedStatement advance = tx.prepareStatement(engine.sql().forStream("advance_and_lease", group.streamId()))) {
            advance.setLong(1, newClaimed);
            advance.setLong(2, provable);
            advance.setBoolean(3, pendingPassed);
            advance.setLong(4, observed.head());
            advance.setBoolean(5, pendingPassed);
            if (observed.xid() == null) {
                advance.setNull(6, Types.VARCHAR);
            } else {
                advance.setString(6, observed.xid());
            }
            advance.setLong(7, group.groupId());
            advance.setLong(8, group.groupId());
            advance.setLong(9, claimed);
            advance.setLong(10, micros(leaseDuration));
            advance.setLong(11, claimed);
            try (ResultSet row = advance.executeQuery()) {
                if (row.next()) {
                    token = row.getString(1);
                }
            }
        }
        return token == null ? null : new Leased(token, claimed, newClaimed);
    }

    /** Takes over one expired range; null when a peer took it first. */
    private Poll reclaim(ConsumerConfig config, Duration leaseDuration) {
        Instant started = engine.environment().clock().instant();
        Reclaimed reclaimed = engine.database().autoCommit("reclaiming for " + group.describe(), connection -> {
            try (PreparedStatement update = connection.prepareStatement(
                    engine.sql().forStream("reclaim_expired_range", group.streamId()))) {
                update.setLong(1, micros(leaseDuration));
                update.setLong(2, group.groupId());
                try (ResultSet row = update.executeQuery()) {
                    return row.next() ? new Reclaimed(row.getString(1), row.getLong(2), row.getLong(3), row.getInt(4)) : null;
                }
            }
        });
        if (reclaimed == null) {
            return null;
        }
        counters.reclaimed.increment();
        engine.diagnostics().event(Code.SQL0026, "lease reclaimed from an expired worker: " + group.describe()
                + " range (" + reclaimed.low() + ", " + reclaimed.high() + "] reclaims=" + reclaimed.reclaims());
        if (reclaimed.reclaims() >= config.resolvedMaxRangeReclaims()) {
            quarantine(reclaimed);
            return Poll.AGAIN;
        }
        List<Delivery> deliveries = engine.database().autoCommit("reading a reclaimed range of " + group.describe(),
                connection -> reader.read(connection, reclaimed.low(), reclaimed.high(), config));
        counters.claimed.add(deliveries.size());
        return new Poll(new ClaimedRange(reclaimed.token(), reclaimed.low(), reclaimed.high(),
                started.plus(leaseDuration), deliveries), false);
    }

    private void quarantine(Reclaimed range) {
        long written = engine.database().autoCommit("quarantining a range of " + group.describe(), connection -> {
            try (PreparedStatement quarantine = connection.prepareStatement(
                    engine.sql().forStream("quarantine_range", group.streamId()))) {
                quarantine.setLong(1, group.groupId());
                quarantine.setString(2, range.token());
                quarantine.setInt(3, schemaVersion);
                quarantine.setLong(4, group.groupId());
                quarantine.setLong(5, group.groupId());
                quarantine.setLong(6, group.groupId());
                quarantine.setLong(7, group.groupId());
                quarantine.setBoolean(8, group.deliveryLogMode() != DeliveryLogMode.OFF);
                try (ResultSet row = quarantine.executeQuery()) {
                    row.next();
                    return row.getLong(2);
                }
            }
        });
        counters.quarantined.increment();
        engine.diagnostics().event(Code.SQL0027, "range (" + range.low() + ", " + range.high() + "] of "
                + group.describe() + " quarantined after " + range.reclaims() + " reclaims: " + written
                + " message(s) now retry on their own as ready exceptions");
    }

    static long micros(Duration duration) {
        return duration.toNanos() / 1000;
    }

    private record Observation(long head, long claimed, long settledHead, long pendingHead, boolean leaseExpired,
                               String xid) {
        boolean idle() {
            return head == claimed && head == settledHead && head == pendingHead;
        }
    }

    private record Reclaimed(String token, long low, long high, int reclaims) {
    }

    private record Leased(String token, long low, long high) {
    }
}
