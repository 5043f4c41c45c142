package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.context.Engine;

/**
 * The session's open ranges and their commits: each outcome is recorded on its range, and a range whose last
 * outcome arrived is committed on the session's recorder thread. A commit that fails is kept for the stop, which
 * retries it; at the stop what never started is given back and the resolved prefix of the rest is recorded.
 */
final class RangeCommitter {
    private final Engine engine;
    private final RegisteredGroup group;
    private final RangeRecorder recorder;
    private final GroupConfigCache config;
    private final ExecutorService recorderThread;
    private final Runnable afterCommit;
    private final Set<ClaimedRange> open = ConcurrentHashMap.newKeySet();
    private final Queue<ClaimedRange> failedCommits = new ConcurrentLinkedQueue<>();

    /** @param afterCommit run after each commit here (key chains waiting for the committed range may go) */
    RangeCommitter(Engine engine, RegisteredGroup group, RangeRecorder recorder, GroupConfigCache config,
                   ExecutorService recorderThread, Runnable afterCommit) {
        this.engine = engine;
        this.group = group;
        this.recorder = recorder;
        this.config = config;
        this.recorderThread = recorderThread;
        this.afterCommit = afterCommit;
    }

    /** A claimed range is open until it is committed or settled; one without deliveries is committed at once. */
    void opened(ClaimedRange range) {
        open.add(range);
        if (range.deliveries().isEmpty()) {
            commitLater(range);
        }
    }

    void record(ClaimedRange range, Delivery delivery, DeliveryOutcome outcome) {
        if (range.record(delivery, outcome)) {
            commitLater(range);
        }
    }

    /**
     * A range that ran in one transaction settled itself: its outcome is committed, its lease was lost, or it is
     * left to its lease. Chains waiting for it may go.
     */
    void settledByItsRun(ClaimedRange range) {
        open.remove(range);
        afterCommit.run();
    }

    private void commitLater(ClaimedRange range) {
        try {
            recorderThread.execute(() -> commit(range));
        } catch (RejectedExecutionException afterShutdown) {
            engine.diagnostics().event(Code.SQL0122, "a handler of " + group.describe()
                    + " finished after the session settled; " + range.describe() + " is reclaimed after its lease");
        }
    }

    private void commit(ClaimedRange range) {
        try {
            recorder.commit(range, config.current());
            open.remove(range);
            afterCommit.run();
        } catch (SqlStreamsException commitFailure) {
            failedCommits.add(range);
            engine.diagnostics().event(Code.SQL0123, "commit of " + range.describe() + " of "
                    + group.describe() + " failed; it is retried at shutdown or left to lease expiry: "
                    + commitFailure.getMessage());
        }
    }

    /**
     * At the stop: lets the recorder thread finish its commits (up to {@code recordWait}), then gives back what
     * never started and records the resolved prefix of the rest.
     */
    void settle(Duration recordWait) {
        settle(recordWait, true);
    }

    /**
     * At a halt: as {@link #settle} but nothing is given back; a range that never started, like the unresolved
     * suffix of the others, keeps its lease until it expires.
     */
    void recordResolved(Duration recordWait) {
        settle(recordWait, false);
    }

    private void settle(Duration recordWait, boolean giveBackUnstarted) {
        recorderThread.shutdown();
        try {
            recorderThread.awaitTermination(recordWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        open.addAll(failedCommits);
        for (ClaimedRange range : open) {
            try {
                if (range.stale()) {
                    continue;
                }
                if (range.neverStarted() && giveBackUnstarted) {
                    recorder.surrender(range);
                } else {
                    recorder.commitPrefix(range, config.current());
                }
            } catch (SqlStreamsException settleFailure) {
                engine.diagnostics().event(Code.SQL0124, "could not settle " + range.describe()
                        + " of " + group.describe() + " at shutdown; it is reclaimed after its lease: "
                        + settleFailure.getMessage());
            }
        }
        open.clear();
    }
}
