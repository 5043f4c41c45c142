package io.sqlstreams.engine.schema;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import io.sqlstreams.Code;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.query.MigrationQueries;
import io.sqlstreams.engine.query.MigrationQueries.StreamVersions;
import io.sqlstreams.engine.query.MigrationQueries.Versions;
import io.sqlstreams.engine.query.StreamQueries;
import io.sqlstreams.engine.sql.Database;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.engine.sql.Transactions;

/**
 * Brings a DDL scope (the system scope, one stream's family, or every stream's) up or down to a version an operator
 * names, under the migrations' advisory lock, refused rather than awaited while another session holds it (SQL0053).
 * A scope already at the target is left alone. This build knows version 1 only, so it has no step between versions:
 * a scope at another version is refused, the direction checks first.
 */
public final class DirectedMigration {
    /** Which way the operator asked to go: {@code up} never lowers a version, {@code down} never raises one. */
    public enum Direction {
        UP, DOWN;

        /** Whether going from {@code recorded} to {@code target} goes this way (staying put does). */
        boolean allows(int recorded, int target) {
            return this == UP ? target >= recorded : target <= recorded;
        }
    }

    private final Database database;
    private final Sql sql;
    private final MigrationQueries migrations;
    private final StreamQueries streams;

    public DirectedMigration(Database database, Sql sql) {
        this.database = database;
        this.sql = sql;
        this.migrations = new MigrationQueries(sql);
        this.streams = new StreamQueries(sql);
    }

    /** Brings the system scope to {@code target}; how many scopes changed version. */
    public int system(Direction direction, int target) {
        return locked(target, "migrating the system scope", tx -> migrate("the system scope",
                migrations.systemVersions(tx), direction, target));
    }

    /** Brings stream {@code name}'s family to {@code target}; SQL0005 when there is no such stream. */
    public int stream(String name, Direction direction, int target) {
        return locked(target, "migrating stream \"" + name + "\"", tx -> {
            long id = streams.find(tx, name).orElseThrow(() -> StreamQueries.notFound(name)).id();
            return migrate("stream \"" + name + "\"", migrations.streamVersions(tx, id), direction, target);
        });
    }

    /**
     * Brings every stream's family to {@code target}. Every stream is attempted; the refusals are joined into one
     * failure that carries the first one's code.
     */
    public int streams(Direction direction, int target) {
        return locked(target, "migrating every stream", tx -> {
            int migrated = 0;
            List<SqlStreamsException> refusals = new ArrayList<>();
            for (StreamVersions stream : migrations.recordedStreamVersions(tx)) {
                try {
                    migrated += migrate("stream \"" + stream.stream() + "\"", stream.versions(), direction, target);
                } catch (SqlStreamsException refused) {
                    refusals.add(refused);
                }
            }
            if (!refusals.isEmpty()) {
                throw joined(refusals);
            }
            return migrated;
        });
    }

    private int locked(int target, String what, Step step) {
        if (target < 1 || target > SchemaMigrator.BUILD_VERSION) {
            throw new InvalidConfigurationException(List.of(new InvalidConfigurationException.Violation(
                    "migration target", target, "must be from 1 to " + SchemaMigrator.BUILD_VERSION
                            + ", the DDL versions this build knows")));
        }
        return database.autoCommit(what + " in schema " + sql.schema(), connection -> {
            if (!migrations.migrationLogExists(connection) || migrations.systemVersions(connection).version() == 0) {
                throw new SqlStreamsException(Code.SQL0017, "schema " + sql.schema()
                        + " holds no sqlstreams installation to migrate");
            }
            return Transactions.run(connection, tx -> {
                if (!migrations.tryLock(tx)) {
                    throw new SqlStreamsException(Code.SQL0053, "another migration of schema " + sql.schema()
                            + " holds the migration lock: " + migrations.lockHolder(connection)
                            .orElse("a session that has let it go since") + "; run this again once it finishes");
                }
                return step.run(tx);
            });
        });
    }

    /** 0 when {@code subject} is at {@code target}; its refusal otherwise, since this build has no step to take. */
    private static int migrate(String subject, Versions recorded, Direction direction, int target) {
        int version = recorded.version();
        if (version == target) {
            return 0;
        }
        String name = direction.name().toLowerCase(Locale.ROOT);
        if (!direction.allows(version, target)) {
            throw new InvalidConfigurationException(List.of(new InvalidConfigurationException.Violation(
                    "migration target", target, "migrating " + name + " cannot go from " + subject
                            + "'s DDL version " + version + " to " + target)));
        }
        throw new SqlStreamsException(version > SchemaMigrator.BUILD_VERSION ? Code.SQL0023 : Code.SQL0022, subject
                + " is at DDL version " + version + " and this build has no step to migrate it " + name + " to "
                + target + ": it knows version " + SchemaMigrator.BUILD_VERSION + " only");
    }

    private static SqlStreamsException joined(List<SqlStreamsException> refusals) {
        String messages = refusals.stream().map(SqlStreamsException::getMessage).collect(Collectors.joining("; "));
        SqlStreamsException failure = new SqlStreamsException(refusals.get(0).code(), refusals.size()
                + " stream(s) refused: " + messages);
        refusals.forEach(failure::addSuppressed);
        return failure;
    }

    @FunctionalInterface
    private interface Step {
        int run(Connection transaction) throws SQLException;
    }
}
