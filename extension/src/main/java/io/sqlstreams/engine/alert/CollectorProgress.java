package io.sqlstreams.engine.alert;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.sqlstreams.AlertState;
import io.sqlstreams.CollectorProgressAlertConfig;
import io.sqlstreams.engine.query.AlertQueries.Lease;
import io.sqlstreams.engine.codec.DurationText;

/**
 * The {@code metrics_collector_progress} condition: the collector's last completed pass is older than the maximum
 * age while a manager (which runs the collector) has held its lease without a break. Leases that overlap or touch
 * count as one unbroken stretch, so a manager replaced in time keeps the evidence; an uncovered gap starts it
 * again. Lateness is counted from the later of the last completion and the start of that stretch.
 */
final class CollectorProgress {
    record Verdict(AlertState state, String finding, Instant lateSince, Duration lateFor, String reason) {
    }

    private final Duration maximumAge;
    private final Duration pendingDuration;
    private final boolean disablePending;

    CollectorProgress(CollectorProgressAlertConfig declared, Duration collectorPollRate) {
        this.maximumAge = declared.resolvedMaximumAge(collectorPollRate);
        this.pendingDuration = declared.resolvedPendingDuration();
        this.disablePending = declared.disablePending();
    }

    Duration maximumAge() {
        return maximumAge;
    }

    Duration pendingDuration() {
        return pendingDuration;
    }

    boolean disablePending() {
        return disablePending;
    }

    /** @param leasesOldestFirst the manager's leases on record, by start */
    Verdict evaluate(Instant lastCompletion, List<Lease> leasesOldestFirst, Instant now) {
        Instant coveredSince = unbrokenCoverageSince(leasesOldestFirst, now);
        if (coveredSince == null) {
            return new Verdict(AlertState.INSUFFICIENT, "no manager holds a live lease", null, Duration.ZERO,
                    "the collector runs only under a manager; worker_liveness reports a missing one");
        }
        Instant reference = lastCompletion != null && lastCompletion.isAfter(coveredSince) ? lastCompletion
                : coveredSince;
        String finding = lastCompletion == null ? "no completed pass recorded"
                : "last pass completed " + Duration.between(lastCompletion, now).toSeconds() + " s ago";
        Instant lateSince = reference.plus(maximumAge);
        if (!now.isAfter(lateSince)) {
            return new Verdict(AlertState.HEALTHY, finding, null, Duration.ZERO,
                    "within the maximum age " + DurationText.format(maximumAge)
                            + " of a manager's unbroken lease or of the last pass");
        }
        Duration lateFor = Duration.between(lateSince, now);
        if (disablePending) {
            return new Verdict(AlertState.ACTIVE, finding, lateSince, lateFor,
                    "late beyond the maximum age " + DurationText.format(maximumAge) + " and pending is disabled");
        }
        boolean active = lateFor.compareTo(pendingDuration) >= 0;
        return new Verdict(active ? AlertState.ACTIVE : AlertState.PENDING, finding, lateSince, lateFor,
                "late for " + DurationText.format(lateFor) + (active ? ", at least " : ", less than ")
                        + "the pending duration " + DurationText.format(pendingDuration)
                        + " while a manager held its lease");
    }

    /** The start of the stretch of overlapping or touching leases that covers {@code now}; null when none does. */
    private static Instant unbrokenCoverageSince(List<Lease> leasesOldestFirst, Instant now) {
        Instant from = null;
        Instant until = null;
        for (Lease lease : leasesOldestFirst) {
            if (until == null || lease.heldFrom().isAfter(until)) {
                from = lease.heldFrom();
                until = lease.heldUntil();
            } else if (lease.heldUntil().isAfter(until)) {
                until = lease.heldUntil();
            }
        }
        return from != null && !from.isAfter(now) && !until.isBefore(now) ? from : null;
    }
}
