package io.sqlstreams.engine.schema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.sql.Database;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.engine.sql.Transactions;
import io.sqlstreams.engine.sql.TransientFailures;

/**
 * Creates and checks the library's DDL versions. Two counters: the system scope (the shared tables) and
 * one per stream (its table family). This build knows version 1 of each. Creation is serialised across
 * processes by a session advisory lock keyed on the schema; every step records its outcome in
 * {@code migration_log}.
 */
public final class SchemaMigrator {
    /** The DDL version this build writes and reads, for both scopes. */
    public static final int BUILD_VERSION = 1;

    private static final List<String> CONTROL_PLANE = List.of(
            "create_system_config", "create_stream_config", "create_stream_config_log",
            "create_stream_config_log_index", "create_consumer_group_config", "create_worker_config",
            "create_worker_config_stream_index", "create_worker_config_group_index",
            "create_worker_config_system_index", "create_worker_config_log", "create_worker_config_log_index",
            "create_worker_instance", "create_worker_instance_worker_index", "create_worker_instance_expiry_index",
            "create_worker_instance_log", "create_worker_instance_log_worker_index",
            "create_worker_instance_log_expiry_index", "create_schedule_config", "create_schedule_cursor",
            "create_schedule_cursor_index", "create_migration_log");

    private static final List<String> STREAM_FAMILY = List.of(
            "create_message_log_sequence", "create_message_log", "own_message_log_sequence",
            "create_message_log_key_index", "create_idempotency_key", "create_idempotency_key_index",
            "create_exception_queue", "create_exception_queue_key_index", "create_delivery_log",
            "create_delivery_log_index", "create_consumer_group_cursor", "create_claim_lease",
            "create_message_key_lease", "create_compaction_head", "create_compaction_head_empty_index",
            "create_binding_config", "create_binding_config_log", "create_binding_config_log_index");

    private final Database database;
    private final Sql sql;
    private volatile long systemId;

    public SchemaMigrator(Database database, Sql sql) {
        this.database = database;
        this.sql = sql;
    }

    /**
     * Makes sure the installation exists at this build's version and returns the system row's id: creates
     * the schema and shared tables when there are none, and refuses a database at another version
     * (SQL0022 older, SQL0023 newer). A role that may not create the schema gets SQL0064.
     */
    public long ensureSystem() {
        long known = systemId;
        if (known != 0) {
            return known;
        }
        long id = database.autoCommit("registering the installation in schema " + sql.schema(), connection -> {
            Long ready = readySystem(connection);
            if (ready != null) {
                return ready;
            }
            lock(connection);
            try {
                Long existing = readySystem(connection);
                return existing != null ? existing : createSystem(connection);
            } finally {
                unlock(connection);
            }
        });
        systemId = id;
        return id;
    }

    /** True when the installation's shared tables exist at a version this build reads; creates nothing. */
    public boolean installed() {
        return systemId != 0
                || database.autoCommit("reading the installation in schema " + sql.schema(), this::readySystem) != null;
    }

    /**
     * Creates a new stream's table family and partition 0 inside the caller's transaction, and records the
     * stream-scope migration.
     */
    public void createStreamFamily(Connection connection, long streamId, long partitionSize) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (String name : STREAM_FAMILY) {
                statement.execute(sql.forStream(name, streamId));
            }
            statement.execute(sql.forPartition("create_partition", streamId, 0, 0, partitionSize));
        }
        recordSuccess(connection, "record_stream_migration", streamId);
    }

    /** Refuses a stream whose family is at a version this build does not read (SQL0022 / SQL0023). */
    public void checkStream(Connection connection, long streamId, String streamName) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(sql.get("stream_versions"))) {
            query.setLong(1, streamId);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                checkVersions("stream " + streamName, row.getInt(1), row.getInt(2));
            }
        }
    }

    private Long readySystem(Connection connection) throws SQLException {
        try (PreparedStatement exists = connection.prepareStatement(sql.get("migration_log_exists"))) {
            exists.setString(1, sql.schema());
            try (ResultSet row = exists.executeQuery()) {
                row.next();
                if (!row.getBoolean(1)) {
                    return null;
                }
            }
        }
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery(sql.get("system_versions"))) {
            row.next();
            int version = row.getInt(1);
            if (version == 0) {
                return null;
            }
            checkVersions("the installation in schema " + sql.schema(), version, row.getInt(2));
        }
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery(sql.get("system_id"))) {
            return row.next() ? row.getLong(1) : null;
        }
    }

    private static void checkVersions(String subject, int version, int minimumCompatible) {
        if (minimumCompatible > BUILD_VERSION) {
            throw new SqlStreamsException(Code.SQL0023, subject + " is at DDL version " + version
                    + " which needs at least library DDL version " + minimumCompatible + "; this build knows "
                    + BUILD_VERSION);
        }
        if (version < BUILD_VERSION) {
            throw new SqlStreamsException(Code.SQL0022, subject + " is at DDL version " + version
                    + "; this build needs " + BUILD_VERSION + ": migrate it up first");
        }
    }

    private long createSystem(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            if (!schemaExists(connection)) {
                statement.execute(sql.get("create_schema"));
            }
        } catch (SQLException failure) {
            throw permissionDenied(failure, "create schema " + sql.schema()
                    + " (grant CREATE on the database, or create the schema for it)");
        }
        return Transactions.run(connection, tx -> {
            try (Statement statement = tx.createStatement()) {
                statement.execute("SET LOCAL lock_timeout = '2000ms'");
                for (String name : CONTROL_PLANE) {
                    statement.execute(sql.get(name));
                }
            } catch (SQLException failure) {
                throw permissionDenied(failure, "create the shared tables in schema " + sql.schema()
                        + " (grant CREATE on the schema)");
            }
            long id;
            try (Statement statement = tx.createStatement(); ResultSet existing = statement.executeQuery(sql.get("system_id"))) {
                id = existing.next() ? existing.getLong(1) : insertSystem(tx);
            }
            recordSuccess(tx, "record_system_migration", id);
            return id;
        });
    }

    /** A schema prepared by an administrator is used as it is: creating it would need CREATE on the database. */
    private boolean schemaExists(Connection connection) throws SQLException {
        try (PreparedStatement exists = connection.prepareStatement(sql.get("schema_exists"))) {
            exists.setString(1, sql.schema());
            try (ResultSet row = exists.executeQuery()) {
                row.next();
                return row.getBoolean(1);
            }
        }
    }

    private long insertSystem(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(sql.get("insert_system"))) {
            row.next();
            return row.getLong(1);
        }
    }

    private void recordSuccess(Connection connection, String statement, long ownerId) throws SQLException {
        try (PreparedStatement record = connection.prepareStatement(sql.get(statement))) {
            record.setLong(1, ownerId);
            record.setInt(2, BUILD_VERSION);
            record.setInt(3, 0);
            record.setString(4, "success");
            record.setNull(5, Types.VARCHAR);
            record.executeUpdate();
        }
    }

    private SQLException permissionDenied(SQLException failure, String what) {
        if ("42501".equals(TransientFailures.state(failure))) {
            throw new SqlStreamsException(Code.SQL0064, "the connecting role may not " + what, failure);
        }
        return failure;
    }

    private void lock(Connection connection) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement(sql.get("lock_migrations"))) {
            lock.setString(1, "sqlstreams.migrations:" + sql.schema());
            lock.execute();
        }
    }

    private void unlock(Connection connection) throws SQLException {
        try (PreparedStatement unlock = connection.prepareStatement(sql.get("unlock_migrations"))) {
            unlock.setString(1, "sqlstreams.migrations:" + sql.schema());
            unlock.execute();
        }
    }
}
