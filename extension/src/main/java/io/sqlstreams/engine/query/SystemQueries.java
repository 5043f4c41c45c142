package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;

/** The installation as a whole: the counts {@code system get} reports, and the DDL {@code system destroy} runs. */
public final class SystemQueries {

    /** The system row with what it is cheap to count beside it. */
    public record SystemRow(long id, Instant createdAt, long streams, long liveInstances) {
    }

    private final Sql sql;

    public SystemQueries(Sql sql) {
        this.sql = sql;
    }

    /** The oldest system row of the installation, when there is one. */
    public Optional<SystemRow> system(Connection connection) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("system_state"))) {
            return query.queryOne(row -> new SystemRow(row.getLong("id"), row.getTimestamp("created_at").toInstant(),
                    row.getLong("streams"), row.getLong("live_instances")));
        }
    }

    /** How many worker instance rows of any worker have not expired. */
    public long liveInstances(Connection connection) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("live_instance_count"))) {
            return query.querySingle(row -> row.getLong("live_instances"));
        }
    }

    /** The id of every registered stream. */
    public List<Long> streamIds(Connection connection) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("stream_ids"))) {
            return query.queryList(row -> row.getLong("id"));
        }
    }

    /** How many streams are registered besides the library's own {@code __system.} streams. */
    public long userStreams(Connection connection) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("user_stream_count"))) {
            return query.querySingle(row -> row.getLong("streams"));
        }
    }

    /** Drops the shared tables; the caller has dropped every stream's family first. */
    public void dropControlPlane(Connection connection) throws SQLException {
        ddl(connection, "drop_control_plane");
    }

    /** Drops the schema when it holds nothing at all (no table, sequence, view, function or type); true if it did. */
    public boolean dropSchemaIfEmpty(Connection connection) throws SQLException {
        boolean occupied;
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("schema_holds_other_objects"))) {
            occupied = query.bind("schema_name", sql.schema()).querySingle(row -> row.getBoolean("present"));
        }
        if (occupied) {
            return false;
        }
        ddl(connection, "drop_schema");
        return true;
    }

    private void ddl(Connection connection, String statement) throws SQLException {
        try (BoundStatement ddl = BoundStatement.prepare(connection, sql.statement(statement))) {
            ddl.update();
        }
    }
}
