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
import io.sqlstreams.engine.query.StreamQueries;
import io.sqlstreams.engine.sql.Database;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.engine.sql.SqlWork;

/**
 * Brings a DDL scope (the system scope, one stream's family, or every stream's) up or down to a version an operator
 * names, from 1 to the scope's build version (SQL0108 otherwise). Each scope walks its steps through
 * {@link StepWalk}; a scope already at the target is left alone.
 */
public final class DirectedMigration {
    /** Which way the operator asked to go: {@code up} never lowers a version, {@code down} never raises one. */
    public enum Direction {
        UP, DOWN;

        /** Whether going from {@code recorded} to {@code target} goes this way (staying put does). */
        boolean allows(int recorded, int target) {
            return this == UP ? target >= recorded : target <= recorded;
        }

        String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Database database;
    private final Sql sql;
    private final MigrationQueries migrations;
    private final StreamQueries streams;
    private final StepWalk walk;

    public DirectedMigration(Database database, Sql sql) {
        this.database = database;
        this.sql = sql;
        this.migrations = new MigrationQueries(sql);
        this.streams = new StreamQueries(sql);
        this.walk = new StepWalk(sql, migrations);
    }

    /** Brings the system scope to {@code target}; how many scopes changed version. */
    public int system(Direction direction, int target) {
        checkTarget(DdlScope.SYSTEM, target);
        return installed("migrating the system scope", connection -> walk.walk(connection,
                MigrationSubject.system(migrations.systemId(connection).orElseThrow()), direction, target));
    }

    /** Brings stream {@code name}'s family to {@code target}; SQL0005 when there is no such stream. */
    public int stream(String name, Direction direction, int target) {
        checkTarget(DdlScope.STREAM, target);
        return installed("migrating stream \"" + name + "\"", connection -> {
            long id = streams.find(connection, name).orElseThrow(() -> StreamQueries.notFound(name)).id();
            return walk.walk(connection, MigrationSubject.stream(id, name), direction, target);
        });
    }

    /**
     * Brings every stream's family to {@code target}, each on its own: the streams that got there stay there. Every
     * stream is attempted; the refusals are joined into one failure that carries the first one's code.
     */
    public int streams(Direction direction, int target) {
        checkTarget(DdlScope.STREAM, target);
        int migrated = 0;
        List<SqlStreamsException> refusals = new ArrayList<>();
        for (StreamVersions stream : installed("listing the streams to migrate", migrations::recordedStreamVersions)) {
            MigrationSubject subject = MigrationSubject.stream(stream.id(), stream.stream());
            try {
                migrated += database.autoCommit("migrating " + subject.description() + " in schema " + sql.schema(),
                        connection -> walk.walk(connection, subject, direction, target));
            } catch (SqlStreamsException refused) {
                refusals.add(refused);
            }
        }
        if (!refusals.isEmpty()) {
            throw joined(refusals);
        }
        return migrated;
    }

    private static void checkTarget(DdlScope scope, int target) {
        if (target < 1 || target > scope.buildVersion()) {
            throw new InvalidConfigurationException(List.of(new InvalidConfigurationException.Violation(
                    "migration target", target, "must be from 1 to " + scope.buildVersion() + ", the "
                            + scope.wireName() + " DDL versions this build knows")));
        }
    }

    /** Runs {@code work} on a schema that holds an installation; SQL0017 when it holds none. */
    private <R> R installed(String what, SqlWork<R> work) {
        return database.autoCommit(what + " in schema " + sql.schema(), connection -> {
            requireInstallation(connection);
            return work.run(connection);
        });
    }

    private void requireInstallation(Connection connection) throws SQLException {
        if (!migrations.migrationLogExists(connection) || migrations.systemVersions(connection).version() == 0) {
            throw new SqlStreamsException(Code.SQL0017, "schema " + sql.schema()
                    + " holds no sqlstreams installation to migrate");
        }
    }

    private static SqlStreamsException joined(List<SqlStreamsException> refusals) {
        String messages = refusals.stream().map(SqlStreamsException::getMessage).collect(Collectors.joining("; "));
        SqlStreamsException failure = new SqlStreamsException(refusals.get(0).code(), refusals.size()
                + " stream(s) refused: " + messages);
        refusals.forEach(failure::addSuppressed);
        return failure;
    }
}
