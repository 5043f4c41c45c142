package io.sqlstreams.engine.consume;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.query.KeyLeaseQueries.WantedKey;

/**
 * Lets a range's key chains through to the dispatcher once their key leases are held: all of a range's keys are
 * asked for in one round trip under the range's token, and its commit gives them back. A chain whose key is
 * busy (leased elsewhere, or an earlier message of its key sits in another open range) waits here,
 * without a permit, and is asked for again every {@link #RETRY} and whenever this session commits a range, for
 * as long as its range's lease leaves time to run it; then, or at once when an earlier message of its key waits
 * on the exception path, the chain is refused and its messages are deferred. While a range has waiting chains,
 * each retry also gives back the keys of its chains that have finished, so two ranges never wait on each other. In
 * whole-range mode (a transactional handler's ranges) a range runs only once all its chains hold their keys, and
 * holds none while any is busy.
 */
final class KeyChainGate {
    static final Duration RETRY = Duration.ofMillis(10);
    /** lease time kept back for a released chain to reach a permit and start */
    private static final Duration DISPATCH_SLACK = Duration.ofSeconds(1);

    /** Where chains go that are admitted or refused after waiting. */
    interface Outlet {
        void admitted(DispatchUnit chain);

        void refused(DispatchUnit chain, String reason);

        /** Whole-range mode: every chain of the range holds its key or was refused; the range may run. */
        default void rangeReady(ClaimedRange range) {
        }
    }

    /** The key leases the gate asks for and gives back under a range's token; a session's key leases implement it. */
    interface RangeKeys {
        KeyGrant takeAll(List<WantedKey> requests, List<String> finished, String token, Duration duration);

        void warnTakenOver(ClaimedRange range, long lost);
    }

    /** A range's chains still waiting, and the keys of its finished chains it holds to no purpose. */
    private static final class Waiting {
        List<DispatchUnit> chains;
        final List<String> finished = new ArrayList<>();

        Waiting(List<DispatchUnit> chains) {
            this.chains = chains;
        }
    }

    private final RangeKeys keys;
    private final Clock clock;
    private final LeaseBudget budget;
    private final ScheduledExecutorService retries;
    private final Outlet outlet;
    private final Map<ClaimedRange, Waiting> waiting = new LinkedHashMap<>();
    private final Object scheduling = new Object();
    private final boolean wholeRanges;
    private ScheduledFuture<?> nextRetry;

    KeyChainGate(RangeKeys keys, Clock clock, Duration grace, Duration recordMargin,
                 ScheduledExecutorService retries, Outlet outlet) {
        this(keys, clock, grace, recordMargin, retries, outlet, false);
    }

    /**
     * @param wholeRanges a range runs whole once all its chains hold their keys ({@link #admitWhole}): a range
     *                    holds none of them while any is busy, so two waiting ranges never hold what the other needs
     */
    KeyChainGate(RangeKeys keys, Clock clock, Duration grace, Duration recordMargin,
                 ScheduledExecutorService retries, Outlet outlet, boolean wholeRanges) {
        this.wholeRanges = wholeRanges;
        this.keys = keys;
        this.clock = clock;
        this.budget = new LeaseBudget(grace, recordMargin);
        this.retries = retries;
        this.outlet = outlet;
    }

    /**
     * Asks for the keys of a freshly claimed range's chains.
     *
     * @return the chains admitted at once; the refused went to the outlet, the rest wait
     */
    List<DispatchUnit> admit(ClaimedRange range, List<DispatchUnit> chains) {
        List<DispatchUnit> admitted = new ArrayList<>();
        List<DispatchUnit> left = ask(range, chains, List.of(), admitted);
        if (!left.isEmpty()) {
            synchronized (waiting) {
                waiting.put(range, new Waiting(left));
            }
            scheduleRetry(RETRY);
        }
        return admitted;
    }

    /**
     * Whole-range mode: asks for the keys of all of a freshly claimed range's chains at once.
     *
     * @return true when the range may run now; otherwise it waits and goes to {@link Outlet#rangeReady} later
     */
    boolean admitWhole(ClaimedRange range, List<DispatchUnit> chains) {
        List<DispatchUnit> left = ask(range, chains, List.of(), null);
        if (left.isEmpty()) {
            return !range.complete();
        }
        synchronized (waiting) {
            waiting.put(range, new Waiting(left));
        }
        scheduleRetry(RETRY);
        return false;
    }

    /** A chain ran to its end; while its range waits for other keys, its key is given back at the next retry. */
    void finished(DispatchUnit chain) {
        synchronized (waiting) {
            Waiting range = waiting.get(chain.range());
            if (range != null) {
                range.finished.add(chain.messageKey());
            }
        }
    }

    /** A range was committed here: chains waiting for it may go now. */
    void nudge() {
        boolean any;
        synchronized (waiting) {
            any = !waiting.isEmpty();
        }
        if (any) {
            scheduleRetry(Duration.ZERO);
        }
    }

    /**
     * The session stops: no more retries.
     *
     * @return the chains still waiting, which never ran
     */
    List<DispatchUnit> close() {
        retries.shutdownNow();
        synchronized (waiting) {
            List<DispatchUnit> unrun = new ArrayList<>();
            waiting.values().forEach(range -> unrun.addAll(range.chains));
            waiting.clear();
            return unrun;
        }
    }

    /** Schedules the one pending retry; an earlier time than the pending one's brings it forward. */
    private void scheduleRetry(Duration after) {
        synchronized (scheduling) {
            if (nextRetry != null && (nextRetry.getDelay(TimeUnit.NANOSECONDS) <= after.toNanos()
                    || !nextRetry.cancel(false))) {
                return;
            }
            try {
                nextRetry = retries.schedule(this::retry, after.toNanos(), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException closed) {
                nextRetry = null;
            }
        }
    }

    private void retry() {
        synchronized (scheduling) {
            nextRetry = null;
        }
        Map<ClaimedRange, Waiting> due;
        synchronized (waiting) {
            due = new LinkedHashMap<>(waiting);
        }
        for (Map.Entry<ClaimedRange, Waiting> entry : due.entrySet()) {
            ClaimedRange range = entry.getKey();
            List<DispatchUnit> chains;
            List<String> finished;
            synchronized (waiting) {
                chains = entry.getValue().chains;
                finished = List.copyOf(entry.getValue().finished);
                entry.getValue().finished.clear();
            }
            List<DispatchUnit> left = range.stale() ? refuseAll(chains) : ask(range, chains, finished, null);
            synchronized (waiting) {
                if (left.isEmpty()) {
                    waiting.remove(range);
                } else {
                    entry.getValue().chains = left;
                }
            }
            if (wholeRanges && left.isEmpty() && !range.stale() && !range.complete()) {
                outlet.rangeReady(range);
            }
        }
        synchronized (waiting) {
            if (!waiting.isEmpty()) {
                scheduleRetry(RETRY);
            }
        }
    }

    /** The range's lease is lost: its waiting chains leave unrun, so their room in the local queue goes back. */
    private List<DispatchUnit> refuseAll(List<DispatchUnit> chains) {
        chains.forEach(chain -> outlet.refused(chain, "its range's lease was lost"));
        return List.of();
    }

    /**
     * Asks once, giving back {@code finished} keys; hands on what is granted (to {@code admittedNow} when given,
     * else to the outlet) or hopeless, and returns the chains that wait.
     */
    private List<DispatchUnit> ask(ClaimedRange range, List<DispatchUnit> chains, List<String> finished,
                                   List<DispatchUnit> admittedNow) {
        Duration leaseLeft = Duration.between(clock.instant(), range.leaseDeadline());
        List<DispatchUnit> asking = new ArrayList<>();
        for (DispatchUnit chain : chains) {
            if (leaseLeft.compareTo(needed(chain)) < 0) {
                outlet.refused(chain, "its key stayed busy until too little of the range's lease was left to run it");
            } else {
                asking.add(chain);
            }
        }
        if (asking.isEmpty()) {
            return List.of();
        }
        KeyGrant grant;
        try {
            grant = keys.takeAll(asking.stream().map(DispatchUnit::keyRequest).toList(), finished, range.token(),
                    leaseLeft.plus(budget.recordMargin()));
        } catch (SqlStreamsException failure) {
            return asking;
        }
        range.keyLeasesChanged(-finished.size());
        if (grant.released() < finished.size()) {
            keys.warnTakenOver(range, finished.size() - grant.released());
        }
        if (wholeRanges) {
            return holdAllOrNone(range, asking, grant, leaseLeft);
        }
        List<DispatchUnit> waits = new ArrayList<>();
        for (int i = 0; i < asking.size(); i++) {
            DispatchUnit chain = asking.get(i);
            switch (grant.states().get(i)) {
                case ACQUIRED -> {
                    range.keyLeasesChanged(1);
                    if (admittedNow != null) {
                        admittedNow.add(chain);
                    } else {
                        outlet.admitted(chain);
                    }
                }
                case AFTER_EXCEPTION -> outlet.refused(chain,
                        "an earlier message of the key waits on the exception path");
                case BUSY -> waits.add(chain);
            }
        }
        return waits;
    }

    /**
     * Whole-range mode: keeps the granted keys only when no chain is busy; otherwise gives them back at once and
     * returns every chain not refused, to ask for all of them again.
     */
    private List<DispatchUnit> holdAllOrNone(ClaimedRange range, List<DispatchUnit> asking, KeyGrant grant,
                                             Duration leaseLeft) {
        List<DispatchUnit> waits = new ArrayList<>();
        List<String> granted = new ArrayList<>();
        boolean anyBusy = false;
        for (int i = 0; i < asking.size(); i++) {
            DispatchUnit chain = asking.get(i);
            switch (grant.states().get(i)) {
                case ACQUIRED -> {
                    granted.add(chain.messageKey());
                    waits.add(chain);
                }
                case AFTER_EXCEPTION -> outlet.refused(chain,
                        "an earlier message of the key waits on the exception path");
                case BUSY -> {
                    anyBusy = true;
                    waits.add(chain);
                }
            }
        }
        if (!anyBusy) {
            range.keyLeasesChanged(granted.size());
            return List.of();
        }
        if (!granted.isEmpty()) {
            try {
                keys.takeAll(List.of(), granted, range.token(), leaseLeft);
            } catch (SqlStreamsException failure) {
                // still held under the range's token: asked for again, they are granted again, and its commit frees them
            }
        }
        return waits;
    }

    private Duration needed(DispatchUnit chain) {
        return budget.needed(chain.deliveries().get(0)).plus(DISPATCH_SLACK);
    }
}
