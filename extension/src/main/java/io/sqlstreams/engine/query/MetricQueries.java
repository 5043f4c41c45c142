package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.List;

import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;

/** The live readings behind the built-in stream and consumer-group metrics. */
public final class MetricQueries {
    /** One consumer group's cursors, leases, exception rows and live instances, as of {@code observedAt}. */
    public record GroupGauges(String group, Instant observedAt, long head, long claimed, long committed,
                              long openLeases, long ready, long inflight, long deferred, long dead,
                              long oldestUnresolvedMillis, long liveInstances) {
    }

    /**
     * One stream's partitions, compaction and workers without a live instance, as of {@code observedAt}; the
     * latter also as a JSON array of objects naming each worker and its group (none for the stream's own); and how
     * long the oldest open producer holding back one of its groups' fresh claims has been open, 0 when none.
     */
    public record StreamGauges(Instant observedAt, long partitions, boolean compacted, long unclaimedWorkers,
                               String unclaimedWorkerNames, long fenceHeldMillis) {
    }

    /**
     * The installation's workers without a live instance and those failing, and its overdue and suspended
     * schedules, as of {@code observedAt}.
     */
    public record SystemGauges(Instant observedAt, long unclaimedWorkers, long oldestUnclaimedMillis,
                               long failingWorkers, long overdueSchedules, long oldestDueMillis,
                               long suspendedSchedules) {
    }

    private final Sql sql;

    public MetricQueries(Sql sql) {
        this.sql = sql;
    }

    /** Every group of the stream, by name; or only {@code group} when it is not null. */
    public List<GroupGauges> groupGauges(Connection connection, long streamId, String group) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.streamStatement("group_gauges", streamId))) {
            query.bind("stream_id", streamId);
            if (group == null) {
                query.bindNull("group_name", Types.VARCHAR);
            } else {
                query.bind("group_name", group);
            }
            return query.queryList(MetricQueries::groupGauges);
        }
    }

    public StreamGauges streamGauges(Connection connection, long streamId) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("stream_gauges", streamId))) {
            return query.bind("stream_id", streamId).querySingle(row -> new StreamGauges(
                    row.getTimestamp("observed_at").toInstant(), row.getLong("partitions"), row.getBoolean("compacted"),
                    row.getLong("workers"), row.getString("unclaimed_names"), row.getLong("fence_held_ms")));
        }
    }

    public SystemGauges systemGauges(Connection connection) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("system_gauges"))) {
            return query.querySingle(row -> new SystemGauges(row.getTimestamp("observed_at").toInstant(),
                    row.getLong("unclaimed_workers"), row.getLong("oldest_unclaimed_ms"),
                    row.getLong("failing_workers"), row.getLong("overdue_schedules"), row.getLong("oldest_due_ms"),
                    row.getLong("suspended_schedules")));
        }
    }

    private static GroupGauges groupGauges(ResultSet row) throws SQLException {
        return new GroupGauges(row.getString("group_name"), row.getTimestamp("observed_at").toInstant(),
                row.getLong("head"), row.getLong("claimed"), row.getLong("committed"), row.getLong("open_leases"),
                row.getLong("ready"), row.getLong("inflight"), row.getLong("deferred"), row.getLong("dead"),
                row.getLong("oldest_unresolved_ms"), row.getLong("live_instances"));
    }
}
