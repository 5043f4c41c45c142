package io.sqlstreams.engine.consume;

import java.util.concurrent.atomic.LongAdder;

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

    SessionCounters snapshot() {
        return new SessionCounters(claimed.sum(), success.sum(), superseded.sum(), ready.sum(), deferred.sum(),
                dead.sum(), reclaimed.sum(), quarantined.sum(), abandoned.sum(), leaseLost.sum(),
                instanceReclaims.sum());
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
