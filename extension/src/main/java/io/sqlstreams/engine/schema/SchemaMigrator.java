package io.sqlstreams.engine.schema;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.query.MigrationQueries;
import io.sqlstreams.engine.sql.Database;
import io.sqlstreams.engine.query.DdlLockTimeout;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.engine.sql.Transactions;

/**
 * Creates and checks the library's DDL versions. Two counters ({@link DdlScope}): the system scope (the shared
 * tables) and one per stream (its table family), each created directly at this build's version of its scope and
 * refused at registration when at an older one or one that needs a newer library. Creation happens in one
 * transaction, serialised across processes by a transaction-scoped advisory lock keyed on the schema (so it works
 * through a transaction-mode pooler too); every step records its outcome in {@code migration_log}.
 */
public final class SchemaMigrator {
    private static final List<String> CONTROL_PLANE = List.of(
            "create_system_config", "create_stream_config", "create_stream_config_log",
            "create_stream_config_log_index", "create_consumer_group_config", "create_worker_config",
            "create_worker_config_stream_index", "create_worker_config_group_index",
            "create_worker_config_system_index", "create_worker_config_log", "create_worker_config_log_index",
            "create_worker_instance", "create_worker_instance_worker_index", "create_worker_instance_expiry_index",
            "create_worker_instance_log", "create_worker_instance_log_worker_index",
            "create_worker_instance_log_expiry_index", "create_schedule_config", "create_schedule_cursor",
            "create_schedule_cursor_index", "create_consumer_group_action_log",
            "create_consumer_group_action_log_index", "create_migration_log");

    private static final List<String> STREAM_FAMILY = List.of(
            "create_message_log_sequence", "create_message_log", "own_message_log_sequence",
            "create_message_log_key_index", "create_idempotency_key", "create_idempotency_key_index",
            "create_exception_queue", "create_exception_queue_key_index", "create_delivery_log",
            "create_delivery_log_index", "create_consumer_group_cursor", "create_claim_lease",
            "create_message_key_lease", "create_compaction_head", "create_compaction_head_empty_index",
            "create_binding_config", "create_binding_config_log", "create_binding_config_log_index");

    /** What {@code migration_log} records: the system scope's versions and each registered stream's. */
    public record RecordedVersions(MigrationQueries.Versions system, List<MigrationQueries.StreamVersions> streams) {
    }

    private final Database database;
    private final Sql sql;
    private final MigrationQueries migrations;
    private volatile long systemId;

    public SchemaMigrator(Database database, Sql sql) {
        this.database = database;
        this.sql = sql;
        this.migrations = new MigrationQueries(sql);
    }

    /**
     * Makes sure the installation exists at this build's system scope version and returns the system row's id: creates
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
            return Transactions.run(connection, tx -> {
                migrations.lock(tx);
                Long existing = readySystem(tx);
                return existing != null ? existing : createSystem(tx);
            });
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
     * The recorded versions, whatever they are (nothing is refused), or empty when the schema holds no
     * installation.
     */
    public Optional<RecordedVersions> recorded() {
        return database.autoCommit("reading the DDL versions in schema " + sql.schema(), connection -> {
            if (!migrations.migrationLogExists(connection)) {
                return Optional.empty();
            }
            MigrationQueries.Versions system = migrations.systemVersions(connection);
            if (system.version() == 0) {
                return Optional.empty();
            }
            return Optional.of(new RecordedVersions(system, migrations.recordedStreamVersions(connection)));
        });
    }

    /** Forgets the system row's id once the installation was destroyed, so the next registration creates it. */
    public void forget() {
        systemId = 0;
    }

    /**
     * Creates a new stream's table family and partition 0 inside the caller's transaction, at this build's stream
     * scope version, and records it.
     */
    public void createStreamFamily(Connection connection, long streamId, long partitionSize) throws SQLException {
        migrations.createStreamFamily(connection, streamId, STREAM_FAMILY, partitionSize);
        migrations.recordStreamStep(connection, streamId, built(DdlScope.STREAM));
    }

    /** Refuses a stream whose family is at a version this build does not read (SQL0022 / SQL0023). */
    public void checkStream(Connection connection, long streamId, String streamName) throws SQLException {
        checkVersions("stream " + streamName, DdlScope.STREAM, migrations.streamVersions(connection, streamId));
    }

    private Long readySystem(Connection connection) throws SQLException {
        if (!migrations.migrationLogExists(connection)) {
            return null;
        }
        MigrationQueries.Versions versions = migrations.systemVersions(connection);
        if (versions.version() == 0) {
            return null;
        }
        checkVersions("the installation in schema " + sql.schema(), DdlScope.SYSTEM, versions);
        return migrations.systemId(connection).orElse(null);
    }

    private static void checkVersions(String subject, DdlScope scope, MigrationQueries.Versions versions) {
        int build = scope.buildVersion();
        if (versions.minCompatibleVersion() > build) {
            throw new SqlStreamsException(Code.SQL0023, subject + " is at DDL version " + versions.version()
                    + " which needs at least library DDL version " + versions.minCompatibleVersion()
                    + "; this build knows " + scope.wireName() + " DDL version " + build);
        }
        if (versions.version() < build) {
            throw new SqlStreamsException(Code.SQL0022, subject + " is at DDL version " + versions.version()
                    + "; this build needs " + scope.wireName() + " DDL version " + build + ": migrate it up first");
        }
    }

    private static MigrationQueries.StepOutcome built(DdlScope scope) {
        return MigrationQueries.StepOutcome.reached(scope.buildVersion(),
                scope.minCompatibleVersionAt(scope.buildVersion()));
    }

    private long createSystem(Connection tx) throws SQLException {
        if (!migrations.schemaExists(tx)) {
            migrations.createSchema(tx);
        }
        new DdlLockTimeout(sql).apply(tx);
        migrations.createSharedTables(tx, CONTROL_PLANE);
        Optional<Long> existing = migrations.systemId(tx);
        long id = existing.isPresent() ? existing.get() : migrations.insertSystem(tx);
        migrations.recordSystemStep(tx, id, built(DdlScope.SYSTEM));
        return id;
    }
}
