package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.Quoting;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.engine.sql.Statement;
import io.sqlstreams.engine.sql.TransientFailures;

/**
 * The installation's DDL and its bookkeeping: the schema, the shared tables, a stream's table family, the system
 * row, {@code migration_log} and the advisory lock that serialises migrations. The DDL splices only the schema
 * name and the stream id, rendered by {@link Sql}; everything else is bound. A role refused the DDL's privilege
 * (SQLSTATE 42501) gets SQL0064 naming what it may not do.
 */
public final class MigrationQueries {
    private static final String PERMISSION_DENIED = "42501";

    /** The newest successful DDL version of a scope and the oldest library version that may read it; 0 when none. */
    public record Versions(int version, int minCompatibleVersion) {
    }

    /** A stream's recorded {@link Versions}. */
    public record StreamVersions(long id, String stream, Versions versions) {
    }

    /**
     * What one {@code migration_log} row records: the version a scope reached, or tried to reach when {@code error}
     * is not null, and the oldest library version that reads it there.
     */
    public record StepOutcome(int version, int minCompatibleVersion, String error) {
        public static StepOutcome reached(int version, int minCompatibleVersion) {
            return new StepOutcome(version, minCompatibleVersion, null);
        }
    }

    private final Sql sql;

    public MigrationQueries(Sql sql) {
        this.sql = sql;
    }

    /**
     * Waits for the advisory lock that serialises migrations of this schema across processes, held until the
     * caller's transaction ends.
     */
    public void lock(Connection transaction) throws SQLException {
        try (BoundStatement lock = BoundStatement.prepare(transaction, sql.statement("lock_migrations"))) {
            lock.bind("lock_key", lockKey()).query().close();
        }
    }

    /** {@link #lock} without waiting: false while another transaction holds it. */
    public boolean tryLock(Connection transaction) throws SQLException {
        try (BoundStatement lock = BoundStatement.prepare(transaction, sql.statement("try_lock_migrations"))) {
            return lock.bind("lock_key", lockKey()).querySingle(row -> row.getBoolean("locked"));
        }
    }

    /**
     * The session that holds {@link #lock}, as {@code pid 4711 (application "psql", client 10.0.0.5, in a transaction
     * since …)}; empty when none does (or it was released meanwhile).
     */
    public Optional<String> lockHolder(Connection connection) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("migration_lock_holder"))) {
            return query.bind("lock_key", lockKey()).queryOne(MigrationQueries::session);
        }
    }

    /** A session other than this one that holds a lock on {@code table} of the schema or on one of its partitions. */
    public Optional<String> tableLockHolder(Connection connection, String table) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("table_lock_holder"))) {
            return query.bind("schema_name", sql.schema()).bind("table_name", table)
                    .queryOne(MigrationQueries::session);
        }
    }

    private static String session(ResultSet row) throws SQLException {
        return "pid " + row.getInt("pid") + " (application " + Quoting.quote(row.getString("application_name"))
                + ", client " + Objects.requireNonNullElse(row.getString("client_addr"), "local")
                + ", in a transaction since " + row.getTimestamp("xact_start").toInstant() + ")";
    }

    private String lockKey() {
        return "sqlstreams.migrations:" + sql.schema();
    }

    /** Whether the schema exists; one prepared by an administrator is used as it is. */
    public boolean schemaExists(Connection connection) throws SQLException {
        return present(connection, "schema_exists");
    }

    public boolean migrationLogExists(Connection connection) throws SQLException {
        return present(connection, "migration_log_exists");
    }

    public void createSchema(Connection connection) throws SQLException {
        try {
            execute(connection, List.of(sql.statement("create_schema").text()));
        } catch (SQLException failure) {
            throw permissionDenied(failure, "create schema " + sql.schema()
                    + " (grant CREATE on the database, or create the schema for it)");
        }
    }

    /** Creates the shared tables and indexes {@code ddl} names that are missing; each statement is idempotent. */
    public void createSharedTables(Connection connection, List<String> ddl) throws SQLException {
        try {
            execute(connection, ddl.stream().map(name -> sql.statement(name).text()).toList());
        } catch (SQLException failure) {
            throw permissionDenied(failure, "create the shared tables in schema " + sql.schema()
                    + " (grant CREATE on the schema)");
        }
    }

    /** Creates a stream's tables {@code ddl} names, then its partition 0, covering ids {@code [0, partitionSize)}. */
    public void createStreamFamily(Connection connection, long streamId, List<String> ddl, long partitionSize)
            throws SQLException {
        List<String> rendered = new ArrayList<>();
        for (String name : ddl) {
            rendered.add(sql.streamStatement(name, streamId).text());
        }
        rendered.add(sql.partitionStatement("create_partition", streamId, 0, 0, partitionSize).text());
        execute(connection, rendered);
    }

    /** Runs one migration step's DDL, which binds nothing, as it is rendered. */
    public void runStep(Connection connection, Statement step) throws SQLException {
        execute(connection, List.of(step.text()));
    }

    /** The installation's system row, the oldest when there are several. */
    public Optional<Long> systemId(Connection connection) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("system_id"))) {
            return query.queryOne(row -> row.getLong("id"));
        }
    }

    public long insertSystem(Connection connection) throws SQLException {
        try (BoundStatement insert = BoundStatement.prepare(connection, sql.statement("insert_system"))) {
            return insert.querySingle(row -> row.getLong("id"));
        }
    }

    public Versions systemVersions(Connection connection) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("system_versions"))) {
            return query.querySingle(MigrationQueries::versions);
        }
    }

    public Versions streamVersions(Connection connection, long streamId) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("stream_versions"))) {
            return query.bind("stream_id", streamId).querySingle(MigrationQueries::versions);
        }
    }

    /** Every registered stream's recorded family version, ordered by name. */
    public List<StreamVersions> recordedStreamVersions(Connection connection) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("recorded_stream_versions"))) {
            return query.queryList(row -> new StreamVersions(row.getLong("id"), row.getString("name"), versions(row)));
        }
    }

    /** Records a step of the shared tables' DDL: the version they reached, or failed to reach. */
    public void recordSystemStep(Connection connection, long systemId, StepOutcome outcome) throws SQLException {
        record(connection, "record_system_migration", "system_id", systemId, outcome);
    }

    /** Records a step of a stream's table family: the version it reached, or failed to reach. */
    public void recordStreamStep(Connection connection, long streamId, StepOutcome outcome) throws SQLException {
        record(connection, "record_stream_migration", "stream_id", streamId, outcome);
    }

    private void record(Connection connection, String statement, String owner, long ownerId, StepOutcome outcome)
            throws SQLException {
        try (BoundStatement record = BoundStatement.prepare(connection, sql.statement(statement))) {
            record.bind(owner, ownerId)
                    .bind("version", outcome.version())
                    .bind("min_compatible_version", outcome.minCompatibleVersion())
                    .bind("status", outcome.error() == null ? "success" : "failure")
                    .bind("error", outcome.error())
                    .update();
        }
    }

    private boolean present(Connection connection, String statement) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement(statement))) {
            return query.bind("schema_name", sql.schema()).querySingle(row -> row.getBoolean("present"));
        }
    }

    /** Runs DDL, which binds nothing, as it is rendered. */
    private static void execute(Connection connection, List<String> ddl) throws SQLException {
        try (java.sql.Statement statement = connection.createStatement()) {
            for (String text : ddl) {
                statement.execute(text);
            }
        }
    }

    private static Versions versions(ResultSet row) throws SQLException {
        return new Versions(row.getInt("version"), row.getInt("min_compatible_version"));
    }

    private static SQLException permissionDenied(SQLException failure, String what) {
        if (PERMISSION_DENIED.equals(TransientFailures.state(failure))) {
            throw new SqlStreamsException(Code.SQL0064, "the connecting role may not " + what, failure);
        }
        return failure;
    }
}
