package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import io.sqlstreams.Binding;
import io.sqlstreams.Consumer;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;

/**
 * A stream's binding tables: {@code binding_config} (each group's effective patterns with their regular
 * expressions, which claims filter by) and {@code binding_config_log} (every installed or waiting attempt).
 */
public final class BindingQueries {
    /** One declaration attempt as {@code binding_config_log} records it. */
    public record Attempt(long groupId, BindingStatus status, List<String> patterns, String declaredBy,
                          Instant declaredAt) {
    }

    private final Sql sql;

    public BindingQueries(Sql sql) {
        this.sql = sql;
    }

    /** The group's newest installed set, or empty when none was ever installed (the whole stream). */
    public Optional<List<String>> installedSet(Connection connection, long streamId, long groupId)
            throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("installed_binding_set", streamId))) {
            return query.bind("consumer_group_id", groupId).queryOne(BindingQueries::patterns);
        }
    }

    public void log(Connection connection, long streamId, Attempt attempt) throws SQLException {
        try (BoundStatement log = BoundStatement.prepare(connection,
                sql.streamStatement("log_binding_attempt", streamId))) {
            log.bind("consumer_group_id", attempt.groupId())
                    .bind("status", attempt.status().column())
                    .bindArray("patterns", "text", attempt.patterns().toArray())
                    .bind("declared_by", attempt.declaredBy())
                    .bind("declared_at", attempt.declaredAt())
                    .update();
        }
    }

    /** Replaces the group's effective patterns; {@code regexes} holds each pattern's expression, in order. */
    public void replace(Connection connection, long streamId, long groupId, List<String> patterns,
                        List<String> regexes) throws SQLException {
        try (BoundStatement replace = BoundStatement.prepare(connection,
                sql.streamStatement("replace_bindings", streamId))) {
            replace.bind("consumer_group_id", groupId)
                    .bindArray("patterns", "text", patterns.toArray())
                    .bindArray("pattern_regexes", "text", regexes.toArray())
                    .update();
        }
    }

    /** The group's newest installed binding, even an empty one; empty when none was ever installed. */
    public Optional<Binding> effective(Connection connection, long streamId, Consumer group) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("effective_binding", streamId))) {
            return query.bind("consumer_group_id", group.id())
                    .queryOne(row -> binding(row, group.stream(), group.name()));
        }
    }

    /**
     * Every group's effective binding set (groups reading the whole stream left out), and each declarer's newest
     * waiting set that is still blocked; by group name, installed before waiting.
     */
    public List<Binding> ofStream(Connection connection, Stream stream) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("bindings_of_stream", stream.id()))) {
            return query.queryList(row -> binding(row, stream.name(), row.getString("consumer_group")));
        }
    }

    private static Binding binding(ResultSet row, String stream, String group) throws SQLException {
        return new Binding(stream, group, row.getString("status"), patterns(row), row.getString("declared_by"),
                row.getTimestamp("declared_at").toInstant(), row.getTimestamp("attempted_at").toInstant());
    }

    private static List<String> patterns(ResultSet row) throws SQLException {
        return Arrays.asList((String[]) row.getArray("patterns").getArray());
    }

    /**
     * Deletes the stream's waiting declarations that a later one of the same group superseded and that were
     * recorded more than {@code age} ago; how many.
     */
    public int sweepSupersededWaits(Connection connection, long streamId, Duration age) throws SQLException {
        try (BoundStatement sweep = BoundStatement.prepare(connection,
                sql.streamStatement("sweep_superseded_binding_waits", streamId))) {
            return sweep.bind("waiting_status", BindingStatus.WAITING.column()).bind("age_micros", Micros.of(age))
                    .update();
        }
    }
}
