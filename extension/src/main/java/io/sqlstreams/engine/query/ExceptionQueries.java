package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import io.sqlstreams.Concurrency;
import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;

/**
 * The statements of a consumer group's exception queue ({@code exception.sql}). A row's {@code attempts} is the
 * number of its latest run counted from 0 (-1 before its first), raised when a handler starts, never by a claim;
 * every outcome write is matched on the row's lease token and audited at the number of the run it is about.
 */
public final class ExceptionQueries {
    private final Sql sql;

    public ExceptionQueries(Sql sql) {
        this.sql = sql;
    }

    /** The exception queue of one consumer group, and how its stream logs deliveries. */
    public record Queue(long streamId, long groupId, DeliveryLogMode logMode) {
        public boolean logsFailures() {
            return logMode != DeliveryLogMode.OFF;
        }
    }

    /** What one claim takes: rows with runs left under {@code maxRetries}, of this payload version. */
    public record ClaimRequest(int maxRetries, int schemaVersion, int limit, Duration lease) {
    }

    /**
     * A claimed row and its message; {@code attempts} and {@code delays} as the row had them when it was claimed.
     */
    public record ClaimedRow(long messageId, int attempts, int delays, UUID token, String messageKey,
                             String routingKey, Long compactionRank, String payloadJson, String optionsJson,
                             String headersJson, Instant createdAt) {
        /** The run this claim is for. */
        public Run run() {
            return new Run(messageId, token, attempts + 1);
        }
    }

    /** One claimed run of a row: the lease token its writes match and its number, counted from 0. */
    public record Run(long messageId, UUID token, int number) {
        /** The number the handler sees, counted from 1. */
        public int attempt() {
            return number + 1;
        }
    }

    /**
     * A non-success outcome of a run. {@code maxRetries} is set for a retryable failure only: the row is dead
     * instead of {@code status} once its counted runs reach it.
     */
    public record Resolution(ExceptionStatus status, Integer maxRetries, int delaysAdded, Duration runAfter,
                             String error, DeliveryLogStatus logStatus) {
        public static Resolution failed(String error, Duration runAfter, int maxRetries) {
            return new Resolution(ExceptionStatus.READY, maxRetries, 0, runAfter, error, DeliveryLogStatus.FAILURE);
        }

        public static Resolution dead(String error) {
            return new Resolution(ExceptionStatus.DEAD, null, 0, Duration.ZERO, error, DeliveryLogStatus.FAILURE);
        }

        public static Resolution delayed(String text, Duration after) {
            return new Resolution(ExceptionStatus.READY, null, 1, after, text, DeliveryLogStatus.DELAYED);
        }
    }

    /** The row as an outcome left it: its status and counted runs. */
    public record Resolved(ExceptionStatus status, int attempts) {
    }

    /**
     * A claimed row going back unrun (or its run handed back) as {@code status}, audited as {@code logStatus}
     * when that is not null.
     */
    public record HandBack(ExceptionStatus status, Concurrency concurrency, String reason, DeliveryLogStatus logStatus) {
    }

    /** Marks dead the in-flight rows whose lease expired with no runs left; returns how many. */
    public long killCrashLooping(Connection connection, Queue queue, int maxRetries) throws SQLException {
        try (BoundStatement kill = prepare(connection, "kill_crash_looping", queue)) {
            return kill.bind("group_id", queue.groupId()).bind("max_retries", maxRetries)
                    .bind("logged", queue.logsFailures())
                    .querySingle(row -> row.getLong("killed"));
        }
    }

    /** How long until the group's soonest ready row with runs left becomes due; empty when none waits. */
    public Optional<Duration> nextDue(Connection connection, Queue queue, int maxRetries) throws SQLException {
        try (BoundStatement next = prepare(connection, "next_exception_due", queue)) {
            return next.bind("group_id", queue.groupId()).bind("max_retries", maxRetries)
                    .queryOne(row -> Duration.ofNanos(row.getLong("due_in_micros") * 1_000));
        }
    }

    /** Claims due rows in id order, skipping rows other claimants hold, each under a lease of its own. */
    public List<ClaimedRow> claim(Connection connection, Queue queue, ClaimRequest request) throws SQLException {
        try (BoundStatement claim = prepare(connection, "claim_exceptions", queue)) {
            return claim.bind("group_id", queue.groupId()).bind("max_retries", request.maxRetries())
                    .bind("schema_version", request.schemaVersion()).bind("limit", request.limit())
                    .bind("lease_micros", micros(request.lease())).bind("logged", queue.logsFailures())
                    .queryList(ExceptionQueries::claimedRow);
        }
    }

    /** Records that the run's handler starts; false when the lease is no longer this run's. */
    public boolean startRun(Connection connection, Queue queue, Run run) throws SQLException {
        try (BoundStatement start = prepareFor(connection, "start_exception_run", queue, run)) {
            return start.bind("attempts", run.number()).queryOne(row -> row.getInt("attempts")).isPresent();
        }
    }

    /** Extends the run's lease; false when it is no longer this run's. */
    public boolean renewLease(Connection connection, Queue queue, Run run, Duration lease) throws SQLException {
        try (BoundStatement renew = prepareFor(connection, "renew_exception_lease", queue, run)) {
            return renew.bind("lease_micros", micros(lease)).queryOne(row -> true).isPresent();
        }
    }

    /** Deletes the row of a run that succeeded; false when the lease was lost. */
    public boolean succeeded(Connection connection, Queue queue, Run run) throws SQLException {
        try (BoundStatement done = prepareFor(connection, "exception_succeeded", queue, run)) {
            return done.bind("attempt", run.number())
                    .bind("logged", DeliveryLogStatus.SUCCESS.loggedUnder(queue.logMode()))
                    .querySingle(row -> row.getLong("written")) > 0;
        }
    }

    /** Writes a non-success outcome; empty when the lease was lost. */
    public Optional<Resolved> resolve(Connection connection, Queue queue, Run run, Resolution resolution)
            throws SQLException {
        try (BoundStatement update = prepareFor(connection, "exception_resolved", queue, run)) {
            return update.bind("status", resolution.status().column()).bind("max_retries", resolution.maxRetries())
                    .bind("delays_added", resolution.delaysAdded())
                    .bind("run_after_micros", micros(resolution.runAfter())).bind("error", resolution.error())
                    .bind("attempt", run.number()).bind("log_status", resolution.logStatus().column())
                    .bind("logged", resolution.logStatus().loggedUnder(queue.logMode()))
                    .queryOne(row -> new Resolved(ExceptionStatus.fromColumn(row.getString("status")),
                            row.getInt("attempts")));
        }
    }

    /** Gives a claimed row back with the attempts it had when claimed; false when the lease was lost. */
    public boolean handBack(Connection connection, Queue queue, Run run, HandBack handBack) throws SQLException {
        DeliveryLogStatus logStatus = handBack.logStatus();
        try (BoundStatement update = prepareFor(connection, "exception_handed_back", queue, run)) {
            return update.bind("status", handBack.status().column())
                    .bind("concurrency", handBack.concurrency().wireName()).bind("attempts", run.number() - 1)
                    .bind("attempt", run.number()).bind("log_status", logStatus == null ? null : logStatus.column())
                    .bind("reason", handBack.reason() == null ? "" : handBack.reason())
                    .bind("logged", logStatus != null && logStatus.loggedUnder(queue.logMode()))
                    .querySingle(row -> row.getLong("written")) > 0;
        }
    }

    private static ClaimedRow claimedRow(ResultSet row) throws SQLException {
        long rank = row.getLong("compaction_rank");
        Long compactionRank = row.wasNull() ? null : rank;
        return new ClaimedRow(row.getLong("message_id"), row.getInt("attempts"), row.getInt("delays"),
                row.getObject("lease_token", UUID.class), row.getString("message_key"), row.getString("routing_key"),
                compactionRank, row.getString("payload"), row.getString("options"), row.getString("headers"),
                row.getObject("created_at", OffsetDateTime.class).toInstant());
    }

    private BoundStatement prepare(Connection connection, String name, Queue queue) throws SQLException {
        return BoundStatement.prepare(connection, sql.streamStatement(name, queue.streamId()));
    }

    /** A statement on one run's row, its group, message and lease token bound. */
    private BoundStatement prepareFor(Connection connection, String name, Queue queue, Run run) throws SQLException {
        BoundStatement statement = prepare(connection, name, queue);
        try {
            return statement.bind("group_id", queue.groupId()).bind("message_id", run.messageId())
                    .bind("token", run.token());
        } catch (RuntimeException | SQLException failure) {
            statement.close();
            throw failure;
        }
    }

    private static long micros(Duration duration) {
        return duration.toNanos() / 1000;
    }
}
