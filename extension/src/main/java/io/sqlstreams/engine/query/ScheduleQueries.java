package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.Concurrency;
import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.Schedule;
import io.sqlstreams.ScheduleGroupStatus;
import io.sqlstreams.ScheduledMessage;
import io.sqlstreams.SchedulerConfig;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.WireNamed;
import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;

/** The rows of {@code schedule_config} and {@code schedule_cursor}. */
public final class ScheduleQueries {
    /** A declaration as it is about to be stored: the payload and metadata as JSON text. */
    public record Declaration(long streamId, String expression, int schemaVersion, String payload,
                              Concurrency concurrency, Duration timeout, String metadata) {
    }

    /** The stored declaration of a locked schedule, and whether its payload and metadata equal the declared. */
    public record Stored(long id, String stream, String expression, int schemaVersion, String payload,
                         Concurrency concurrency, Duration timeout, String metadata, boolean suspended,
                         boolean samePayload, boolean sameMetadata) {
    }

    /** A locked schedule's name, expression and whether it is suspended. */
    public record State(long id, String expression, boolean suspended) {
    }

    /** A schedule whose due time has come, locked, and the database's time. */
    public record Due(long id, String name, long streamId, String expression, int schemaVersion, String payload,
                      Concurrency concurrency, Duration timeout, Instant nextScheduledAt, Instant now) {
    }

    /** What {@code run} produces: a schedule's stream, payload and timeout, and the database's time. */
    public record RunSource(long id, long streamId, int schemaVersion, String payload, Duration timeout,
                            Instant now) {
    }

    private final Sql sql;

    public ScheduleQueries(Sql sql) {
        this.sql = sql;
    }

    public static SqlStreamsException notFound(String name) {
        return new SqlStreamsException(Code.SQL0013, "schedule \"" + name + "\" is not registered");
    }

    /** The new schedule's id, or empty when the name is taken. */
    public Optional<Long> insert(Connection connection, long systemId, String name, Declaration declaration)
            throws SQLException {
        try (BoundStatement insert = BoundStatement.prepare(connection, sql.statement("insert_schedule"))) {
            return bindDeclaration(insert.bind("system_id", systemId).bind("name", name), declaration)
                    .queryOne(row -> row.getLong("id"));
        }
    }

    public Optional<Stored> lock(Connection connection, String name, Declaration declared) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("lock_schedule"))) {
            return query.bind("name", name).bind("payload", declared.payload()).bind("metadata", declared.metadata())
                    .queryOne(row -> new Stored(row.getLong("id"), row.getString("stream"),
                            row.getString("expression"), row.getInt("schema_version"), row.getString("payload"),
                            concurrency(row), Duration.ofNanos(row.getLong("timeout_ns")), row.getString("metadata"),
                            row.getBoolean("suspended"), row.getBoolean("same_payload"),
                            row.getBoolean("same_metadata")));
        }
    }

    public void update(Connection connection, long id, Declaration declaration) throws SQLException {
        try (BoundStatement update = BoundStatement.prepare(connection, sql.statement("update_schedule"))) {
            bindDeclaration(update.bind("id", id), declaration).update();
        }
    }

    public Instant databaseNow(Connection connection) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("database_now"))) {
            return query.querySingle(row -> instant(row, "now"));
        }
    }

    public void seedCursor(Connection connection, long scheduleId, Instant next) throws SQLException {
        try (BoundStatement seed = BoundStatement.prepare(connection, sql.statement("seed_schedule_cursor"))) {
            seed.bind("schedule_id", scheduleId).bind("next_scheduled_at", next).update();
        }
    }

    public Optional<Schedule> find(Connection connection, String name) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("schedule_by_name"))) {
            return query.bind("name", name).queryOne(ScheduleQueries::schedule);
        }
    }

    public List<Schedule> all(Connection connection) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("all_schedules"))) {
            return query.queryList(ScheduleQueries::schedule);
        }
    }

    public Optional<State> lockState(Connection connection, String name) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("lock_schedule_state"))) {
            return query.bind("name", name).queryOne(row -> new State(row.getLong("id"), row.getString("expression"),
                    row.getBoolean("suspended")));
        }
    }

    public void setSuspended(Connection connection, long id, boolean suspended) throws SQLException {
        try (BoundStatement update = BoundStatement.prepare(connection, sql.statement("set_schedule_suspended"))) {
            update.bind("id", id).bind("suspended", suspended).update();
        }
    }

    /** True when there was such a schedule. */
    public boolean delete(Connection connection, String name) throws SQLException {
        try (BoundStatement delete = BoundStatement.prepare(connection, sql.statement("delete_schedule"))) {
            return delete.bind("name", name).queryOne(row -> row.getLong("id")).isPresent();
        }
    }

    /** The first due schedule other than the {@code skipped} ones that no other transaction holds, locked. */
    public Optional<Due> nextDue(Connection connection, Collection<Long> skipped) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("next_due_schedule"))) {
            return query.bindArray("skipped", "bigint", skipped.toArray()).queryOne(row -> new Due(row.getLong("id"), row.getString("name"), row.getLong("stream_id"),
                    row.getString("expression"), row.getInt("schema_version"), row.getString("payload"),
                    concurrency(row), Duration.ofNanos(row.getLong("timeout_ns")), instant(row, "next_scheduled_at"),
                    instant(row, "now")));
        }
    }

    public void advance(Connection connection, long scheduleId, Instant last, Instant next) throws SQLException {
        try (BoundStatement update = BoundStatement.prepare(connection, sql.statement("advance_schedule_cursor"))) {
            update.bind("schedule_id", scheduleId).bind("last_scheduled_at", last).bind("next_scheduled_at", next)
                    .update();
        }
    }

    public Optional<RunSource> lockForRun(Connection connection, String name) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("lock_schedule_for_run"))) {
            return query.bind("name", name).queryOne(row -> new RunSource(row.getLong("id"), row.getLong("stream_id"),
                    row.getInt("schema_version"), row.getString("payload"), Duration.ofNanos(row.getLong("timeout_ns")),
                    instant(row, "now")));
        }
    }

    /** The id of the schedule's stream, or empty when there is no such schedule. */
    public Optional<Long> streamOf(Connection connection, String name) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("schedule_target"))) {
            return query.bind("name", name).queryOne(row -> row.getLong("stream_id"));
        }
    }

    /** @param stream the schedule's stream: its delivery log mode says whether successes are logged */
    public List<ScheduleGroupStatus> groupStatus(Connection connection, Stream stream, String name)
            throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("schedule_group_status", stream.id()))) {
            return bindOutcomes(query, stream, name).queryList(row -> new ScheduleGroupStatus(
                    row.getString("consumer_group"), row.getLong("ran"), row.getLong("succeeded"),
                    row.getLong("failed"), row.getLong("superseded")));
        }
    }

    /** The schedule's newest {@code limit} messages, newest first, with their outcome in every group. */
    public List<ScheduledMessage> messages(Connection connection, Stream stream, String name, int limit)
            throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("schedule_messages", stream.id()))) {
            List<MessageOutcome> rows = bindOutcomes(query, stream, name).bind("row_limit", limit)
                    .queryList(row -> new MessageOutcome(row.getLong("id"), instant(row, "created_at"),
                            row.getString("scheduled_at"), row.getString("consumer_group"),
                            row.getString("outcome"), (Long) row.getObject("next_id"),
                            instant(row, "next_created_at")));
            Map<Long, List<MessageOutcome>> byMessage = new LinkedHashMap<>();
            rows.forEach(row -> byMessage.computeIfAbsent(row.id(), ignored -> new ArrayList<>()).add(row));
            return byMessage.values().stream().map(ScheduleQueries::message).toList();
        }
    }

    private static BoundStatement bindOutcomes(BoundStatement query, Stream stream, String name)
            throws SQLException {
        return query.bind("name", name).bind("stream_id", stream.id())
                .bind("logs_successes", stream.deliveryLogMode() == DeliveryLogMode.ALL);
    }

    private record MessageOutcome(long id, Instant createdAt, String scheduledAt, String group, String outcome,
                                  Long nextId, Instant nextAt) {
    }

    private static ScheduledMessage message(List<MessageOutcome> rows) {
        MessageOutcome first = rows.get(0);
        Map<String, ScheduledMessage.Outcome> outcomes = new TreeMap<>();
        rows.stream().filter(row -> row.group() != null).forEach(row -> outcomes.put(row.group(),
                WireNamed.parse(ScheduledMessage.Outcome.class, "outcome", row.outcome())));
        return new ScheduledMessage(first.id(),
                first.scheduledAt() == null ? first.createdAt() : Instant.parse(first.scheduledAt()),
                first.createdAt(), outcomes, first.nextId(), first.nextAt());
    }

    private static BoundStatement bindDeclaration(BoundStatement statement, Declaration declaration)
            throws SQLException {
        return statement.bind("stream_id", declaration.streamId()).bind("expression", declaration.expression())
                .bind("schema_version", declaration.schemaVersion()).bind("payload", declaration.payload())
                .bind("concurrency", declaration.concurrency().wireName())
                .bind("timeout_ns", declaration.timeout().toNanos()).bind("metadata", declaration.metadata());
    }

    private static Schedule schedule(ResultSet row) throws SQLException {
        String metadata = row.getString("metadata");
        return new Schedule(row.getString("name"), row.getString("stream"), row.getString("expression"),
                row.getBoolean("suspended"), row.getInt("schema_version"), row.getString("payload"),
                new SchedulerConfig(Duration.ofNanos(row.getLong("timeout_ns")), concurrency(row), metadata),
                instant(row, "next_scheduled_at"), instant(row, "last_scheduled_at"), instant(row, "created_at"),
                instant(row, "updated_at"));
    }

    private static Concurrency concurrency(ResultSet row) throws SQLException {
        return Concurrency.fromWireName(row.getString("concurrency"));
    }

    private static Instant instant(ResultSet row, String column) throws SQLException {
        Timestamp value = row.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }
}
