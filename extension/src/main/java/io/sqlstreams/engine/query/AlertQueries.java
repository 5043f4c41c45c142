package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;

/** The evidence the built-in alerts judge, and reads of the alerts recorded on {@code __system.alerts}. */
public final class AlertQueries {
    /** The database's time, and half the lock ceiling it reports. */
    public record AlertClock(Instant evaluatedAt, long halfLockCeiling) {
    }

    /** A retained measurement of one series, its payload still JSON text. */
    public record StoredSample(long id, Instant createdAt, String payload) {
    }

    /** How many alerts' newest reports are active, and how many resolved. */
    public record AlertCounts(long active, long resolved) {
    }

    /** One lease of a worker: from its instance's creation to the latest expiry a renewal gave it. */
    public record Lease(Instant heldFrom, Instant heldUntil) {
    }

    private final Sql sql;

    public AlertQueries(Sql sql) {
        this.sql = sql;
    }

    public AlertClock clock(Connection connection) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("alert_clock"))) {
            return query.querySingle(row -> new AlertClock(row.getTimestamp("evaluated_at").toInstant(),
                    row.getLong("half_lock_ceiling")));
        }
    }

    /** The series' measurements on the metrics stream stored since {@code since}, newest first. */
    public List<StoredSample> samples(Connection connection, long metricsStreamId, String seriesKey, Instant since)
            throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("evidence_samples", metricsStreamId))) {
            return query.bind("message_key", seriesKey).bind("since", since).queryList(row -> new StoredSample(
                    row.getLong("id"), row.getTimestamp("created_at").toInstant(), row.getString("payload")));
        }
    }

    /** The newest report of each alert of {@code owner} on the alerts stream, by message key. */
    public List<KeyQueries.KeyedMessage> ownerHeads(Connection connection, long alertsStreamId, String owner)
            throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("owner_alert_heads", alertsStreamId))) {
            return query.bind("owner", owner).queryList(KeyQueries::message);
        }
    }

    public AlertCounts countsByStatus(Connection connection, long alertsStreamId) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("alert_heads_by_status", alertsStreamId))) {
            return query.querySingle(row -> new AlertCounts(row.getLong("active"), row.getLong("resolved")));
        }
    }

    /** Every lease of the system worker {@code workerName} still on record, oldest first. */
    public List<Lease> systemWorkerLeases(Connection connection, String workerName) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("manager_leases"))) {
            return query.bind("worker_name", workerName).queryList(row -> new Lease(
                    row.getTimestamp("held_from").toInstant(), row.getTimestamp("held_until").toInstant()));
        }
    }
}
