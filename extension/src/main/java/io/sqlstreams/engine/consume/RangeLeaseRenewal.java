package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.time.Instant;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.ClaimQueries;

/**
 * The start guard of a plain handler's queued message. A message starts only while its range's lease still holds
 * its {@link LeaseBudget}; when it does not, the lease is renewed by the range's token, with the key leases its
 * chains hold, so a range whose messages waited in the local queue keeps running here. A renewal fails only when
 * the lease ran out (a stalled session) or another instance reclaimed it: then nothing more of the range starts
 * here (SQL0105), and whoever reclaims it runs what is left.
 */
final class RangeLeaseRenewal {
    private final Engine engine;
    private final RegisteredGroup group;
    private final LeaseBudget budget;
    private final ClaimQueries queries;

    RangeLeaseRenewal(Engine engine, RegisteredGroup group, LeaseBudget budget) {
        this.engine = engine;
        this.group = group;
        this.budget = budget;
        this.queries = new ClaimQueries(engine.sql());
    }

    /** Whether {@code delivery} of {@code range} may start now, renewing the range's lease when it must. */
    boolean mayStart(ClaimedRange range, Delivery delivery) {
        Duration needed = budget.needed(delivery);
        if (range.stale()) {
            return false;
        }
        return leaseLeft(range).compareTo(needed) >= 0 || renewedFor(range, delivery, needed);
    }

    /** One renewal at a time: a unit of the same range that waited finds the lease another one renewed. */
    private synchronized boolean renewedFor(ClaimedRange range, Delivery delivery, Duration needed) {
        if (range.stale()) {
            return false;
        }
        if (leaseLeft(range).compareTo(needed) >= 0) {
            return true;
        }
        String refusal = renew(range);
        if (refusal == null && leaseLeft(range).compareTo(needed) >= 0) {
            return true;
        }
        if (refusal == null) {
            refusal = "even its renewed lease is too short (the queue margin is shorter than a renewal took)";
        }
        range.markStale();
        engine.diagnostics().event(Code.SQL0105, "queued message " + delivery.messageId() + " of "
                + group.describe() + " needs " + needed.toMillis() + " ms of lease and " + range.describe()
                + " has " + leaseLeft(range).toMillis() + " ms left; " + refusal
                + ", so nothing more of the range starts here and it is left to its reclaim");
        return false;
    }

    /** Renews the range's lease; null when it did, else why not. */
    private String renew(ClaimedRange range) {
        Instant renewing = engine.environment().clock().instant();
        ClaimQueries.Renewal renewal;
        try {
            renewal = engine.database().autoCommit("renewing the lease of " + range.describe() + " of "
                    + group.describe(), connection -> queries.renewRange(connection, group.ids(), range.token(),
                    range.leaseDuration(), budget.recordMargin()));
        } catch (SqlStreamsException failure) {
            return "its lease could not be renewed: " + failure.getMessage();
        }
        if (!renewal.renewed()) {
            return "its lease ran out or was reclaimed by another instance";
        }
        if (renewal.keyLeasesKept() < range.keyLeasesHeld()) {
            return "a key lease of its chains was taken over";
        }
        range.leaseRenewed(renewing);
        return null;
    }

    private Duration leaseLeft(ClaimedRange range) {
        return Duration.between(engine.environment().clock().instant(), range.leaseDeadline());
    }
}
