package io.sqlstreams.engine.consume;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import io.sqlstreams.Code;
import io.sqlstreams.SessionCounters;

/** The live counters of one session. */
final class SessionCounterSet {
    final LongAdder claimed = new LongAdder();
    final LongAdder success = new LongAdder();
    final LongAdder superseded = new LongAdder();
    final LongAdder ready = new LongAdder();
    final LongAdder deferred = new LongAdder();
    final LongAdder dead = new LongAdder();
    final LongAdder reclaimed = new LongAdder();
    final LongAdder quarantined = new LongAdder();
    final LongAdder abandoned = new LongAdder();
    final LongAdder leaseLost = new LongAdder();
    final LongAdder instanceReclaims = new LongAdder();
    /** Abandoned handler routines that have not returned yet. */
    final LongAdder abandonedOutstanding = new LongAdder();
    /** Abandoned handler routines that returned on their own, and the milliseconds they took in all. */
    final LongAdder abandonedCleared = new LongAdder();
    final LongAdder abandonedClearMillis = new LongAdder();

    SessionCounters snapshot() {
        return new SessionCounters(claimed.sum(), success.sum(), superseded.sum(), ready.sum(), deferred.sum(),
                dead.sum(), reclaimed.sum(), quarantined.sum(), abandoned.sum(), leaseLost.sum(),
                instanceReclaims.sum());
    }

    /** The counters recorded as session metrics, by their codes SQL0042–SQL0051 (instanceReclaims is none). */
    Map<Code, Long> metricTotals() {
        Map<Code, Long> totals = new LinkedHashMap<>();
        totals.put(Code.SQL0042, claimed.sum());
        totals.put(Code.SQL0043, success.sum());
        totals.put(Code.SQL0044, superseded.sum());
        totals.put(Code.SQL0045, ready.sum());
        totals.put(Code.SQL0046, deferred.sum());
        totals.put(Code.SQL0047, dead.sum());
        totals.put(Code.SQL0048, reclaimed.sum());
        totals.put(Code.SQL0049, quarantined.sum());
        totals.put(Code.SQL0050, abandoned.sum());
        totals.put(Code.SQL0051, leaseLost.sum());
        return totals;
    }

    void count(DeliveryOutcome outcome) {
        if (outcome instanceof DeliveryOutcome.Success) {
            success.increment();
        } else if (outcome instanceof DeliveryOutcome.Dead) {
            dead.increment();
        } else if (outcome instanceof DeliveryOutcome.Deferred) {
            deferred.increment();
        } else if (outcome instanceof DeliveryOutcome.Superseded) {
            superseded.increment();
        } else {
            ready.increment();
        }
    }

    String summary() {
        SessionCounters c = snapshot();
        return "claimed_count=" + c.claimed() + " success_count=" + c.success() + " superseded_count=" + c.superseded()
                + " ready_count=" + c.ready() + " deferred_count=" + c.deferred() + " dead_count=" + c.dead()
                + " reclaimed_count=" + c.reclaimed() + " quarantined_count=" + c.quarantined()
                + " abandoned_count=" + c.abandoned() + " lease_lost_count=" + c.leaseLost()
                + " instance_reclaim_count=" + c.instanceReclaims();
    }
}
