package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.sqlstreams.Code;
import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.engine.Engine;

/**
 * The exception path of one session: retries the group's due exception rows one at a time. Each pass first
 * runs the crash-loop backstop (in-flight rows whose lease expired with no attempts left are dead, SQL0031),
 * then claims due rows in id order with SKIP LOCKED under a per-row lease, runs each, and writes its outcome
 * matched on the row's lease token. Rows claimed but not run when the session stops are given back.
 */
final class ExceptionConsumer<T> {
    /** Beyond timeout + grace the runner has always completed the outcome, unless the session stopped its timers. */
    private static final Duration OUTCOME_SLACK = Duration.ofSeconds(1);

    private final Engine engine;
    private final RegisteredGroup group;
    private final int schemaVersion;
    private final RangeReader reader;
    private final KeyedRunner<T> runner;
    private final SessionCounterSet counters;
    private final Runnable moveCommitted;

    /**
     * @param moveCommitted run after a pass that handed rows back because their key was busy or that resolved
     *                      an ordered message: moving the committed cursor at once is what frees the next
     *                      message of the key, instead of waiting for the periodic advance
     */
    ExceptionConsumer(Engine engine, RegisteredGroup group, int schemaVersion, RangeReader reader,
                      KeyedRunner<T> runner, SessionCounterSet counters, Runnable moveCommitted) {
        this.engine = engine;
        this.group = group;
        this.schemaVersion = schemaVersion;
        this.reader = reader;
        this.runner = runner;
        this.counters = counters;
        this.moveCommitted = moveCommitted;
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
        List<Row> rows = engine.database().autoCommit("claiming exceptions of " + group.describe(),
                connection -> claim(connection, limit, budget, leaseDuration, config));
        int ran = 0;
        boolean orderedResolved = false;
        for (Row row : rows) {
            if (stop.stopping()) {
                surrender(row);
                continue;
            }
            Instant deadline = claimedAt.plus(leaseDuration);
            Duration needed = leaseBudget.needed(row.delivery());
            if (Duration.between(engine.environment().clock().instant(), deadline).compareTo(needed) < 0
                    && !renew(row, leaseDuration)) {
                continue;
            }
            if (runAndRecord(row, leaseBudget)) {
                ran++;
                orderedResolved |= row.delivery().options().concurrency() == Concurrency.ORDERED;
            }
        }
        if (ran < rows.size() || orderedResolved) {
            moveCommitted.run();
        }
        return ran;
    }

    /** Runs one row and writes its outcome; false when it went back without running (key busy, superseded). */
    private boolean runAndRecord(Row row, LeaseBudget leaseBudget) throws InterruptedException {
        DeliveryOutcome outcome;
        Duration bound = leaseBudget.handlerBound(row.delivery()).plus(OUTCOME_SLACK);
        try {
            outcome = runner.run(row.delivery()).get(bound.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException impossible) {
            outcome = OutcomeClassifier.classify(impossible.getCause());
        } catch (TimeoutException stopped) {
            outcome = new DeliveryOutcome.Retry("hard timeout: no outcome within " + bound
                    + " (the session stopped its timers)");
        }
        RetryPolicy retry = row.delivery().options().retry();
        int failures = row.attempts() - row.delays();
        if (outcome instanceof DeliveryOutcome.Success) {
            succeeded(row);
        } else if (outcome instanceof DeliveryOutcome.Retry failed) {
            if (failures >= retry.maxRetries()) {
                resolve(row, "dead", 0, Duration.ZERO, failed.error(), "failure");
            } else {
                resolve(row, "ready", 0, retry.calculateDelay(failures - 1), failed.error(), "failure");
            }
        } else if (outcome instanceof DeliveryOutcome.Deferred deferred) {
            handBack(row, "deferred", deferred.reason(), true);
            counters.deferred.increment();
            return false;
        } else if (outcome instanceof DeliveryOutcome.Superseded) {
            handBack(row, "superseded", "a newer version of the key is its compaction head", true);
            counters.superseded.increment();
            return false;
        } else if (outcome instanceof DeliveryOutcome.Delay delay) {
            Integer maxDelays = retry.maxDelays();
            if (maxDelays != null && maxDelays > 0 && row.delays() >= maxDelays) {
                resolve(row, "dead", 0, Duration.ZERO, delay.text() + " (maxDelays " + maxDelays + " reached)", "failure");
            } else {
                resolve(row, "ready", 1, delay.after(), delay.text(), "delayed");
            }
        } else {
            resolve(row, "dead", 0, Duration.ZERO, ((DeliveryOutcome.Dead) outcome).error(), "failure");
        }
        return true;
    }

    private void succeeded(Row row) {
        long written = engine.database().autoCommit("recording a retried success of " + group.describe(), connection -> {
            try (PreparedStatement done = connection.prepareStatement(
                    engine.sql().forStream("exception_succeeded", group.streamId()))) {
                done.setLong(1, group.groupId());
                done.setLong(2, row.delivery().messageId());
                done.setString(3, row.token());
                done.setLong(4, group.groupId());
                done.setBoolean(5, group.deliveryLogMode() == DeliveryLogMode.ALL);
                try (ResultSet result = done.executeQuery()) {
                    result.next();
                    return result.getLong(1);
                }
            }
        });
        tally(written, "success");
    }

    private void resolve(Row row, String status, int delaysAdded, Duration runAfter, String error, String logStatus) {
        long written = engine.database().autoCommit("recording a retry outcome of " + group.describe(), connection -> {
            try (PreparedStatement update = connection.prepareStatement(
                    engine.sql().forStream("exception_resolved", group.streamId()))) {
                update.setString(1, status);
                update.setInt(2, delaysAdded);
                update.setLong(3, FreshClaimer.micros(runAfter));
                update.setString(4, error);
                update.setLong(5, group.groupId());
                update.setLong(6, row.delivery().messageId());
                update.setString(7, row.token());
                update.setLong(8, group.groupId());
                update.setString(9, logStatus);
                update.setString(10, error);
                update.setBoolean(11, group.deliveryLogMode() != DeliveryLogMode.OFF);
                try (ResultSet result = update.executeQuery()) {
                    result.next();
                    return result.getLong(1);
                }
            }
        });
        tally(written, status);
        if (written > 0 && "dead".equals(status)) {
            engine.diagnostics().event(Code.SQL0030, "message " + row.delivery().messageId() + " of " + group.describe()
                    + " dead-lettered on the exception path after " + row.attempts() + " retried run(s)");
        }
    }

    private void surrender(Row row) {
        handBack(row, "ready", null, false);
    }

    /** Returns a claimed row that did not run, its claim's attempt given back; audited when {@code logged}. */
    private void handBack(Row row, String status, String reason, boolean logged) {
        engine.database().autoCommit("handing back an exception row of " + group.describe(), connection -> {
            try (PreparedStatement handBack = connection.prepareStatement(
                    engine.sql().forStream("exception_handed_back", group.streamId()))) {
                handBack.setString(1, status);
                handBack.setString(2, row.delivery().options().concurrency().wireName());
                handBack.setLong(3, group.groupId());
                handBack.setLong(4, row.delivery().messageId());
                handBack.setString(5, row.token());
                handBack.setLong(6, group.groupId());
                handBack.setString(7, status);
                handBack.setString(8, reason == null ? "" : reason);
                handBack.setBoolean(9, logged && group.deliveryLogMode() != DeliveryLogMode.OFF);
                try (ResultSet result = handBack.executeQuery()) {
                    result.next();
                    return result.getLong(1);
                }
            }
        });
    }

    private void tally(long written, String status) {
        if (written == 0) {
            counters.leaseLost.increment();
            return;
        }
        switch (status) {
            case "success" -> counters.success.increment();
            case "dead" -> counters.dead.increment();
            default -> counters.ready.increment();
        }
    }

    private boolean renew(Row row, Duration leaseDuration) {
        return engine.database().autoCommit("renewing an exception lease of " + group.describe(), connection -> {
            try (PreparedStatement renew = connection.prepareStatement(
                    engine.sql().forStream("renew_exception_lease", group.streamId()))) {
                renew.setLong(1, FreshClaimer.micros(leaseDuration));
                renew.setLong(2, group.groupId());
                renew.setLong(3, row.delivery().messageId());
                renew.setString(4, row.token());
                try (ResultSet result = renew.executeQuery()) {
                    return result.next();
                }
            }
        });
    }

    private void killCrashLoops(int budget) {
        long killed = engine.database().autoCommit("running the crash-loop backstop of " + group.describe(), connection -> {
            try (PreparedStatement kill = connection.prepareStatement(
                    engine.sql().forStream("kill_crash_looping", group.streamId()))) {
                kill.setLong(1, group.groupId());
                kill.setInt(2, budget);
                kill.setLong(3, group.groupId());
                kill.setBoolean(4, group.deliveryLogMode() != DeliveryLogMode.OFF);
                try (ResultSet result = kill.executeQuery()) {
                    result.next();
                    return result.getLong(1);
                }
            }
        });
        if (killed > 0) {
            counters.dead.add(killed);
            engine.diagnostics().event(Code.SQL0031, killed + " in-flight exception row(s) of " + group.describe()
                    + " marked dead by the crash-loop backstop (their handlers kept dying without an outcome)");
        }
    }

    private List<Row> claim(Connection connection, int limit, int budget, Duration leaseDuration, ConsumerConfig config)
            throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (PreparedStatement claim = connection.prepareStatement(
                engine.sql().forStream("claim_exceptions", group.streamId()))) {
            claim.setLong(1, group.groupId());
            claim.setInt(2, budget);
            claim.setInt(3, schemaVersion);
            claim.setInt(4, limit);
            claim.setLong(5, FreshClaimer.micros(leaseDuration));
            claim.setLong(6, group.groupId());
            claim.setBoolean(7, group.deliveryLogMode() != DeliveryLogMode.OFF);
            try (ResultSet row = claim.executeQuery()) {
                while (row.next()) {
                    long id = row.getLong(1);
                    int attempts = row.getInt(2);
                    long rank = row.getLong(8);
                    Long compactionRank = row.wasNull() ? null : rank;
                    MessageOptions options = reader.resolve(id, row.getString(10), config);
                    Delivery delivery = new Delivery(id, row.getString(7), row.getString(5), compactionRank,
                            row.getString(9), row.getTimestamp(11).toInstant(), options, attempts + 1);
                    rows.add(new Row(delivery, attempts, row.getInt(3), row.getString(4)));
                }
            }
        }
        return rows;
    }

    /** A claimed exception row: its delivery, its counters after the claim, and its lease token. */
    private record Row(Delivery delivery, int attempts, int delays, String token) {
    }

    /** Whether the session is stopping, checked between rows. */
    @FunctionalInterface
    interface StopSignal {
        boolean stopping();
    }
}
