package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import io.sqlstreams.Code;
import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.DeliveryLogStatus;
import io.sqlstreams.engine.query.ExceptionQueries;
import io.sqlstreams.engine.query.ExceptionQueries.ClaimedRow;
import io.sqlstreams.engine.query.ExceptionQueries.HandBack;
import io.sqlstreams.engine.query.ExceptionQueries.Resolution;
import io.sqlstreams.engine.query.ExceptionQueries.Resolved;
import io.sqlstreams.engine.query.ExceptionStatus;

/**
 * The exception path of one session: retries the group's due exception rows, up to MessageConcurrency at once
 * and those of one message key one after another. Each pass first runs the crash-loop backstop (in-flight rows
 * whose lease expired with no attempts left are dead, SQL0031), then claims due rows in id order with SKIP LOCKED
 * under a per-row lease, runs them, and writes each outcome, in the order the rows started, matched on the row's
 * lease token. A run counts once its handler starts, not at the claim; rows claimed but not
 * run when the session stops are given back. A halted session (disableGracefulShutdown) records nothing more: its
 * claimed rows, the one in flight included, keep their leases until they expire.
 */
final class ExceptionConsumer<T> {
    /** Beyond timeout + grace the runner has always completed the outcome, unless the session stopped its timers. */
    private static final Duration OUTCOME_SLACK = Duration.ofSeconds(1);

    private final Engine engine;
    private final RegisteredGroup group;
    private final ExceptionQueries queries;
    private final ExceptionQueries.Queue queue;
    private final int schemaVersion;
    private final RangeReader reader;
    private final KeyedRunner<T> runner;
    private final SessionCounterSet counters;
    private final Runnable moveCommitted;
    private final Halt halt;
    private final boolean successRecordedByRun;
    private final int concurrency;
    /** When, by {@link System#nanoTime()}, the soonest row the last claim found not due yet comes due. */
    private Optional<Long> nextDueNanos = Optional.empty();

    /**
     * @param moveCommitted run after a pass that handed rows back because their key was busy or that resolved
     *                      an ordered message: moving the committed cursor at once is what frees the next
     *                      message of the key, instead of waiting for the periodic advance
     * @param successRecordedByRun a transactional handler's run records its success in its own transaction
     *                             ({@link RetryTransactions}); only its failures are left to write here
     * @param concurrency how many claimed rows run at once (MessageConcurrency), rows of one message key never
     */
    ExceptionConsumer(Engine engine, RegisteredGroup group, int schemaVersion, RangeReader reader,
                      KeyedRunner<T> runner, SessionCounterSet counters, Runnable moveCommitted, Halt halt,
                      boolean successRecordedByRun, int concurrency) {
        this.engine = engine;
        this.group = group;
        this.queries = new ExceptionQueries(engine.sql());
        this.queue = new ExceptionQueries.Queue(group.streamId(), group.groupId(), group.deliveryLogMode());
        this.schemaVersion = schemaVersion;
        this.reader = reader;
        this.runner = runner;
        this.counters = counters;
        this.moveCommitted = moveCommitted;
        this.halt = halt;
        this.successRecordedByRun = successRecordedByRun;
        this.concurrency = concurrency;
    }

    /**
     * One pass; returns how many rows ran a handler, so a pass that only handed rows back (their keys still
     * busy) waits a poll period like an empty one instead of claiming them again at once.
     */
    int pass(int limit, ConsumerConfig config, Duration leaseDuration, LeaseBudget leaseBudget, StopSignal stop)
            throws InterruptedException {
        int budget = config.resolvedMessageMax().retry().maxRetries();
        killCrashLoops(budget);
        Instant claimedAt = engine.environment().clock().instant();
        long claimStartedNanos = System.nanoTime();
        Claim claim = engine.database().inTransaction("claiming exceptions of " + group.describe(),
                connection -> claim(connection, limit, budget, leaseDuration, config));
        nextDueNanos = claim.nextDue().map(dueIn -> claimStartedNanos + dueIn.toNanos());
        List<Row> rows = claim.rows();
        PassRuns runs = new PassRuns();
        for (Row row : rows) {
            while (runs.mustWaitBefore(row)) {
                runs.recordOldest();
            }
            if (halt.raised()) {
                break;
            }
            if (stop.stopping()) {
                surrender(row);
                continue;
            }
            if (runs.keyHeldBack(row)) {
                handBack(row, ExceptionStatus.DEFERRED, null, null);
                continue;
            }
            Instant deadline = claimedAt.plus(leaseDuration);
            Duration needed = leaseBudget.needed(row.delivery());
            if (Duration.between(engine.environment().clock().instant(), deadline).compareTo(needed) < 0
                    && !renew(row, leaseDuration)) {
                continue;
            }
            runs.start(row, leaseBudget);
        }
        runs.recordAll();
        if (runs.ran < rows.size() || runs.orderedResolved) {
            moveCommitted.run();
        }
        return runs.ran;
    }

    /**
     * How long the path may rest before a ready row comes due: {@code longest}, or less when the last claim saw a
     * row that was not due yet and comes due sooner. Rows that were due but could not be claimed (their key busy)
     * are not counted: they wait {@code longest}.
     */
    Duration rest(Duration longest) {
        return nextDueNanos.map(dueAt -> Duration.ofNanos(Math.max(0, dueAt - System.nanoTime())))
                .filter(dueIn -> dueIn.compareTo(longest) < 0).orElse(longest);
    }

    /**
     * The rows of one pass that started, oldest first, until their outcomes are written in that order; up to
     * {@link #concurrency} at once, rows of one message key one after another.
     */
    private final class PassRuns {
        private final Deque<Started> running = new ArrayDeque<>();
        private final Set<String> keysHeldBack = new HashSet<>();
        private int ran;
        private boolean orderedResolved;

        /** Whether the oldest run must be recorded first: all lanes busy, or a row of its key still running. */
        boolean mustWaitBefore(Row row) {
            String key = row.delivery().messageKey();
            return running.size() >= concurrency || key != null
                    && running.stream().anyMatch(started -> key.equals(started.row().delivery().messageKey()));
        }

        boolean keyHeldBack(Row row) {
            return keysHeldBack.contains(row.delivery().messageKey());
        }

        void start(Row row, LeaseBudget leaseBudget) {
            Duration bound = leaseBudget.handlerBound(row.delivery()).plus(OUTCOME_SLACK);
            running.addLast(new Started(row, runner.run(row.delivery()), bound));
        }

        void recordOldest() throws InterruptedException {
            Started oldest = running.removeFirst();
            if (record(oldest, keysHeldBack)) {
                ran++;
                orderedResolved |= oldest.ordered();
            }
        }

        void recordAll() throws InterruptedException {
            while (!running.isEmpty()) {
                recordOldest();
            }
        }
    }

    /**
     * Waits for a started row's outcome and writes it; false when it went back without running (key busy,
     * superseded). A halt while it runs leaves the row to its lease. An ordered row that did not succeed or die
     * adds its key to {@code keysHeldBack}: the later rows of that key claimed in the same pass go back deferred
     * without running and without a new audit row, as their key lease would refuse them anyway.
     */
    private boolean record(Started started, Set<String> keysHeldBack) throws InterruptedException {
        Optional<DeliveryOutcome> finished = awaitOutcome(started);
        if (finished.isEmpty()) {
            return true;
        }
        DeliveryOutcome outcome = finished.get();
        if (started.ordered() && started.row().delivery().messageKey() != null
                && !(outcome instanceof DeliveryOutcome.Success) && !(outcome instanceof DeliveryOutcome.Dead)) {
            keysHeldBack.add(started.row().delivery().messageKey());
        }
        return write(started.row(), outcome);
    }

    /** A started row's outcome; empty when a halt came first. */
    private Optional<DeliveryOutcome> awaitOutcome(Started started) throws InterruptedException {
        try {
            return halt.outcomeUnlessHalted(started.outcome(), started.bound());
        } catch (ExecutionException impossible) {
            return Optional.of(OutcomeClassifier.classify(impossible.getCause()));
        } catch (TimeoutException stopped) {
            return Optional.of(new DeliveryOutcome.Retry("hard timeout: no outcome within " + started.bound()
                    + " (the session stopped its timers)"));
        }
    }

    /** Writes a row's outcome; false when it went back without running. */
    private boolean write(Row row, DeliveryOutcome outcome) {
        RetryPolicy retry = row.delivery().options().retry();
        if (outcome instanceof DeliveryOutcome.Success) {
            succeeded(row);
        } else if (outcome instanceof DeliveryOutcome.Retry failed) {
            // the failures so far, this run included when its start was recorded; only the backoff reads it
            int failures = row.run().number() - row.claimed().delays();
            resolve(row, Resolution.failed(failed.error(), retry.calculateDelay(failures - 1), retry.maxRetries()));
        } else if (outcome instanceof DeliveryOutcome.Deferred deferred) {
            handBack(row, ExceptionStatus.DEFERRED, deferred.reason(), DeliveryLogStatus.DEFERRED);
            counters.deferred.increment();
            return false;
        } else if (outcome instanceof DeliveryOutcome.Superseded) {
            handBack(row, ExceptionStatus.SUPERSEDED, "a newer version of the key is its compaction head",
                    DeliveryLogStatus.SUPERSEDED);
            counters.superseded.increment();
            return false;
        } else if (outcome instanceof DeliveryOutcome.Delay delay) {
            Integer maxDelays = retry.maxDelays();
            if (maxDelays != null && maxDelays > 0 && row.claimed().delays() >= maxDelays) {
                resolve(row, Resolution.dead(delay.text() + " (maxDelays " + maxDelays + " reached)"));
            } else {
                resolve(row, Resolution.delayed(delay.text(), delay.after()));
            }
        } else {
            resolve(row, Resolution.dead(((DeliveryOutcome.Dead) outcome).error()));
        }
        return true;
    }

    private void succeeded(Row row) {
        if (successRecordedByRun) {
            counters.success.increment();
            return;
        }
        boolean written = engine.database().autoCommit("recording a retried success of " + group.describe(),
                connection -> queries.succeeded(connection, queue, row.run()));
        if (written) {
            counters.success.increment();
        } else {
            counters.leaseLost.increment();
        }
    }

    private void resolve(Row row, Resolution resolution) {
        Optional<Resolved> resolved = engine.database().autoCommit("recording a retry outcome of " + group.describe(),
                connection -> queries.resolve(connection, queue, row.run(), resolution));
        if (resolved.isEmpty()) {
            counters.leaseLost.increment();
        } else if (resolved.get().status() == ExceptionStatus.DEAD) {
            counters.dead.increment();
            engine.diagnostics().event(Code.SQL0030, "message " + row.run().messageId() + " of " + group.describe()
                    + " dead-lettered on the exception path after " + resolved.get().attempts() + " retried run(s)");
        } else {
            counters.ready.increment();
        }
    }

    private void surrender(Row row) {
        handBack(row, ExceptionStatus.READY, null, null);
    }

    /** Returns a claimed row that did not run with the attempts it had when claimed; audited as {@code logStatus}. */
    private void handBack(Row row, ExceptionStatus status, String reason, DeliveryLogStatus logStatus) {
        HandBack handBack = new HandBack(status, row.delivery().options().concurrency(), reason, logStatus);
        engine.database().autoCommit("handing back an exception row of " + group.describe(),
                connection -> queries.handBack(connection, queue, row.run(), handBack));
    }

    private boolean renew(Row row, Duration leaseDuration) {
        return engine.database().autoCommit("renewing an exception lease of " + group.describe(),
                connection -> queries.renewLease(connection, queue, row.run(), leaseDuration));
    }

    /** A retried run records its start just before its handler runs, and a transactional success inside it. */
    private final class RetriedRunRecords implements Delivery.RunRecords {
        private final ExceptionQueries.Run run;

        RetriedRunRecords(ExceptionQueries.Run run) {
            this.run = run;
        }

        @Override
        public boolean start() {
            return engine.database().autoCommit("recording the start of a retried run of " + group.describe(),
                    connection -> queries.startRun(connection, queue, run));
        }

        @Override
        public boolean succeeded(Connection transaction) throws SQLException {
            return queries.succeeded(transaction, queue, run);
        }
    }

    private void killCrashLoops(int budget) {
        long killed = engine.database().autoCommit("running the crash-loop backstop of " + group.describe(),
                connection -> queries.killCrashLooping(connection, queue, budget));
        if (killed > 0) {
            counters.dead.add(killed);
            engine.diagnostics().event(Code.SQL0031, killed + " in-flight exception row(s) of " + group.describe()
                    + " marked dead by the crash-loop backstop (their handlers kept dying without an outcome)");
        }
    }

    /**
     * Claims the due rows and, in the same transaction (so by the same {@code now()}), reads when the soonest row
     * the claim saw as not due yet comes due: a row that comes due between the claim and a later reading would
     * otherwise be counted by neither.
     */
    private Claim claim(Connection connection, int limit, int budget, Duration leaseDuration, ConsumerConfig config)
            throws SQLException {
        List<Row> rows = new ArrayList<>();
        for (ClaimedRow claimed : queries.claim(connection, queue,
                new ExceptionQueries.ClaimRequest(budget, schemaVersion, limit, leaseDuration))) {
            ExceptionQueries.Run run = claimed.run();
            MessageOptions options = reader.resolve(claimed.messageId(), claimed.optionsJson(), config);
            Delivery delivery = new Delivery(claimed.messageId(), claimed.routingKey(), claimed.messageKey(),
                    claimed.compactionRank(), claimed.payloadJson(), claimed.headersJson(), claimed.createdAt(), options, run.attempt(),
                    claimed.delays(), new RetriedRunRecords(run));
            rows.add(new Row(delivery, claimed, run));
        }
        return new Claim(rows, queries.nextDue(connection, queue, budget));
    }

    /** A pass's claimed rows, and how long after the claim the soonest ready row it could not take yet comes due. */
    private record Claim(List<Row> rows, Optional<Duration> nextDue) {
    }

    /** A claimed exception row: its delivery, the row as claimed, and the run the claim is for. */
    private record Row(Delivery delivery, ClaimedRow claimed, ExceptionQueries.Run run) {
    }

    /** A row whose run was handed to the runner; its outcome is awaited for at most {@code bound}. */
    private record Started(Row row, CompletableFuture<DeliveryOutcome> outcome, Duration bound) {
        boolean ordered() {
            return row.delivery().options().concurrency() == Concurrency.ORDERED;
        }
    }

    /** Whether the session is stopping, checked between rows. */
    @FunctionalInterface
    interface StopSignal {
        boolean stopping();
    }
}
