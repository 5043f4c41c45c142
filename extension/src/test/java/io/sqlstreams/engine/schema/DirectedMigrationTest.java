package io.sqlstreams.engine.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.function.Supplier;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.schema.DirectedMigration.Direction;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.testing.PostgresTest;

/**
 * {@link DirectedMigration} on an installation at this build's only version, 1: nothing to migrate, the target and
 * direction checks, refusal while another session holds the migration lock, and a hand-made version 2 that this
 * build has no step for.
 */
@PostgresTest
class DirectedMigrationTest extends EngineTestBase {
    private DirectedMigration migration;
    private io.sqlstreams.testing.Sql sql;

    @BeforeEach
    void registerStreams() {
        client.stream("migrate.a", Object.class).register();
        client.stream("migrate.b", Object.class).register();
        Engine engine = EngineFixtures.engine(database, logger);
        migration = new DirectedMigration(engine.database(), engine.sql());
        sql = new io.sqlstreams.testing.Sql(database);
    }

    @Test
    void aScopeAtTheTargetIsLeftAloneEitherWay() throws SQLException {
        long logged = sql.count("SELECT count(*) FROM {s}.migration_log");

        assertThat(List.of(migration.system(Direction.UP, 1), migration.system(Direction.DOWN, 1),
                migration.streams(Direction.UP, 1), migration.streams(Direction.DOWN, 1),
                migration.stream("migrate.a", Direction.UP, 1), migration.stream("migrate.b", Direction.DOWN, 1)))
                .containsOnly(0);
        assertThat(sql.count("SELECT count(*) FROM {s}.migration_log")).isEqualTo(logged);
    }

    @Test
    void aTargetOutsideTheVersionsThisBuildKnowsIsInvalid() {
        for (int target : List.of(0, -1, SchemaMigrator.BUILD_VERSION + 1)) {
            SqlStreamsException invalid = refusal(() -> migration.system(Direction.UP, target));
            assertThat(invalid.code()).as("target %d", target).isEqualTo(Code.SQL0108);
            assertThat(invalid.getMessage()).contains("migration target = " + target + ": must be from 1 to 1");
        }
    }

    @Test
    void aHandMadeVersionTwoRefusesUpAsTheWrongWayAndDownForWantOfAStep() throws SQLException {
        long streamId = client.stream("migrate.b", Object.class).get().orElseThrow().id();
        sql.update("INSERT INTO {s}.migration_log (system_id, version, min_compatible_version, status)"
                + " SELECT id, 2, 0, 'success' FROM {s}.system_config");
        sql.update("INSERT INTO {s}.migration_log (stream_id, version, min_compatible_version, status)"
                + " VALUES (?, 2, 0, 'success')", streamId);
        try {
            SqlStreamsException up = refusal(() -> migration.system(Direction.UP, 1));
            SqlStreamsException down = refusal(() -> migration.system(Direction.DOWN, 1));
            SqlStreamsException streamUp = refusal(() -> migration.stream("migrate.b", Direction.UP, 1));
            SqlStreamsException streams = refusal(() -> migration.streams(Direction.DOWN, 1));

            assertThat(up.code()).isEqualTo(Code.SQL0108);
            assertThat(up.getMessage()).contains("migrating up cannot go from the system scope's DDL version 2 to 1");
            assertThat(down.code()).isEqualTo(Code.SQL0023);
            assertThat(down.getMessage()).contains("the system scope is at DDL version 2 and this build has no step"
                    + " to migrate it down to 1");
            assertThat(streamUp.code()).isEqualTo(Code.SQL0108);
            assertThat(streams.code()).isEqualTo(Code.SQL0023);
            assertThat(streams.getMessage()).contains("1 stream(s) refused: SQL0023 stream \"migrate.b\" is at DDL"
                    + " version 2");
            assertThat(migration.stream("migrate.a", Direction.DOWN, 1)).as("the other stream").isZero();
        } finally {
            sql.update("DELETE FROM {s}.migration_log WHERE version = 2");
        }
    }

    @Test
    void anotherSessionHoldingTheMigrationLockIsNamedNotAwaited() throws SQLException {
        try (Connection holder = database.dataSource().getConnection();
             Statement statement = holder.createStatement()) {
            holder.setAutoCommit(false);
            statement.execute("SET application_name = 'hand-migration'");
            statement.execute("SELECT pg_advisory_xact_lock(hashtextextended('sqlstreams.migrations:"
                    + database.schema() + "', 0))");
            int pid = backendPid(holder);

            SqlStreamsException locked = refusal(() -> migration.system(Direction.UP, 1));
            SqlStreamsException streamLocked = refusal(() -> migration.stream("migrate.a", Direction.DOWN, 1));

            assertThat(locked.code()).isEqualTo(Code.SQL0053);
            assertThat(locked.getMessage()).contains("holds the migration lock: pid " + pid
                    + " (application \"hand-migration\"");
            assertThat(streamLocked.code()).isEqualTo(Code.SQL0053);
            holder.rollback();
        }
        assertThat(migration.system(Direction.UP, 1)).as("once the lock is let go").isZero();
    }

    @Test
    void anUnknownStreamOrAMissingInstallationIsNotFound() {
        DirectedMigration empty = new DirectedMigration(EngineFixtures.engine(database, logger).database(),
                new Sql(database.extraSchema("bare")));

        assertThat(refusal(() -> migration.stream("migrate.missing", Direction.UP, 1)).code()).isEqualTo(Code.SQL0005);
        assertThat(refusal(() -> empty.system(Direction.UP, 1)).code()).isEqualTo(Code.SQL0017);
        assertThat(refusal(() -> empty.streams(Direction.DOWN, 1)).code()).isEqualTo(Code.SQL0017);
    }

    private static int backendPid(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             var row = statement.executeQuery("SELECT pg_backend_pid()")) {
            row.next();
            return row.getInt(1);
        }
    }

    private static SqlStreamsException refusal(Supplier<Integer> call) {
        SqlStreamsException refused = catchThrowableOfType(SqlStreamsException.class, call::get);
        assertThat(refused).as("expected a refusal").isNotNull();
        return refused;
    }
}
