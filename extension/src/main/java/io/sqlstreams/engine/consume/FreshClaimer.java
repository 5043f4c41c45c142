package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.ClaimQueries;
import io.sqlstreams.engine.query.ClaimQueries.LockedCursor;
import io.sqlstreams.engine.query.ClaimQueries.Observation;
import io.sqlstreams.engine.query.ClaimQueries.Reclaimed;
import io.sqlstreams.engine.query.GroupIds;
import io.sqlstreams.engine.query.GroupQueries;

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
    private final GroupIds ids;
    private final ClaimQueries queries;
    private final FenceWatch fenceWatch;

    FreshClaimer(Engine engine, RegisteredGroup group, int schemaVersion, RangeReader reader, SessionCounterSet counters) {
        this.engine = engine;
        this.group = group;
        this.schemaVersion = schemaVersion;
        this.reader = reader;
        this.counters = counters;
        this.ids = group.ids();
        this.queries = new ClaimQueries(engine.sql());
        this.fenceWatch = new FenceWatch(engine, group, queries);
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
            fenceWatch.released();
            return Poll.CAUGHT_UP;
        }
        Instant claimStarted = engine.environment().clock().instant();
        Leased leased = engine.database().inTransaction("claiming for " + group.describe(),
                tx -> claim(tx, observed, limit, leaseDuration));
        if (leased == null) {
            if (observed.head() > observed.claimed()) {
                fenceWatch.held(observed.xid());
                return Poll.AGAIN;
            }
            fenceWatch.released();
            return Poll.CAUGHT_UP;
        }
        fenceWatch.released();
        List<Delivery> deliveries = engine.database().autoCommit("reading a claimed range of " + group.describe(),
                connection -> reader.read(connection, leased.low(), leased.high(), config));
        counters.claimed.add(deliveries.size());
        return new Poll(new ClaimedRange(leased.token(), leased.low(), leased.high(), claimStarted, leaseDuration,
                deliveries), false);
    }

    private Observation observe(Connection connection) throws SQLException {
        return queries.observe(connection, ids)
                .orElseThrow(() -> GroupQueries.notFound(group.streamName(), group.groupName()));
    }

    /**
     * The claim transaction: lock the cursor, move it as far as the fences prove, lease the new range. The
     * range's rows are read after it commits (a later snapshot still sees every row the fence proved), so the
     * cursor row is locked only for these two statements.
     */
    private Leased claim(Connection tx, Observation observed, int limit, Duration leaseDuration) throws SQLException {
        LockedCursor cursor = queries.lockCursor(tx, ids, observed.xid())
                .orElseThrow(() -> GroupQueries.notFound(group.streamName(), group.groupName()));
        long provable = cursor.settledHead();
        if (cursor.observedFencePassed()) {
            provable = Math.max(provable, observed.head());
        }
        if (cursor.pendingFencePassed()) {
            provable = Math.max(provable, cursor.pendingHead());
        }
        long claimed = cursor.claimed();
        long newClaimed = Math.max(claimed, Math.min(claimed + limit, provable));
        return queries.advanceAndLease(tx, ids, new ClaimQueries.Advance(claimed, newClaimed, provable,
                        cursor.pendingFencePassed(), observed.head(), observed.xid(), leaseDuration))
                .map(token -> new Leased(token, claimed, newClaimed))
                .orElse(null);
    }

    /** Takes over one expired range; null when a peer took it first. */
    private Poll reclaim(ConsumerConfig config, Duration leaseDuration) {
        Instant started = engine.environment().clock().instant();
        Reclaimed reclaimed = engine.database().autoCommit("reclaiming for " + group.describe(),
                connection -> queries.reclaimExpired(connection, ids, leaseDuration).orElse(null));
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
        return new Poll(new ClaimedRange(reclaimed.token(), reclaimed.low(), reclaimed.high(), started, leaseDuration,
                deliveries), false);
    }

    private void quarantine(Reclaimed range) {
        long written = engine.database().autoCommit("quarantining a range of " + group.describe(),
                connection -> queries.quarantine(connection, ids, range.token(), schemaVersion,
                        group.deliveryLogMode()));
        counters.quarantined.increment();
        engine.diagnostics().event(Code.SQL0027, "range (" + range.low() + ", " + range.high() + "] of "
                + group.describe() + " quarantined after " + range.reclaims() + " reclaims: " + written
                + " message(s) now retry on their own as ready exceptions");
    }

    private record Leased(String token, long low, long high) {
    }
}
