package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.Json;

/** {@code migrate system|streams|stream up|down --to N} on an installation at DDL version 1 with two streams. */
@PostgresTest
class MigrateScopeCommandsTest {
    private static Map<String, String> environment;
    private static Sql sql;

    @BeforeAll
    static void registerStreams(TestDatabase database) throws SQLException {
        EngineClient client = EngineFixtures.client(database, new RecordingLogger());
        client.stream("orders.created", Object.class).register();
        client.stream("payments.requested", Object.class).register();
        sql = new Sql(database);
        environment = CliRun.environmentFor(database);
    }

    @Test
    void aScopeAtTheTargetMigratesNothing() {
        CliRun system = CliRun.run(environment, "migrate", "system", "up", "--to", "1");
        CliRun stream = CliRun.run(environment, "migrate", "stream", "down", "payments.requested", "--to", "1",
                "-o", "json");
        CliRun streams = CliRun.run(environment, "migrate", "streams", "up", "--to", "1", "-o", "json");

        assertThat(List.of(system, stream, streams)).extracting(CliRun::exitCode).containsOnly(ExitCodes.OK);
        assertThat(TextTables.fields(system.outLines())).containsExactly(Map.entry("to", "1"),
                Map.entry("migrated_count", "0"));
        assertThat(stream.json()).isEqualTo(Json.createObjectBuilder().add("stream", "payments.requested")
                .add("to", 1).add("migrated_count", 0).build());
        assertThat(streams.json()).isEqualTo(Json.createObjectBuilder().add("to", 1).add("migrated_count", 0)
                .build());
    }

    @Test
    void aTargetOutsideOneToTheBuildVersionOrNoneIsAUsageError() {
        CliRun zero = CliRun.run(environment, "migrate", "system", "up", "--to", "0");
        CliRun two = CliRun.run(environment, "migrate", "stream", "up", "orders.created", "--to", "2", "-o", "json");
        CliRun missing = CliRun.run(environment, "migrate", "streams", "down");
        CliRun notANumber = CliRun.run(environment, "migrate", "system", "down", "--to", "one");

        assertThat(List.of(zero, two, missing, notANumber)).extracting(CliRun::exitCode)
                .containsOnly(ExitCodes.USAGE);
        assertThat(zero.errLines()).singleElement().asString().startsWith("SQL0108 invalid configuration: migration"
                + " target = 0: must be from 1 to 1");
        assertThat(two.error().getString("code")).isEqualTo("SQL0108");
        assertThat(missing.errLines()).singleElement().asString().startsWith("usage: Missing required option:"
                + " '--to=N'");
        assertThat(notANumber.err()).startsWith("usage: ");
        assertThat(zero.out() + two.out() + missing.out() + notANumber.out()).isEmpty();
    }

    @Test
    void aHandMadeVersionTwoRefusesUpAsTheWrongWayAndDownForWantOfAStep() throws SQLException {
        sql.update("INSERT INTO {s}.migration_log (system_id, version, min_compatible_version, status)"
                + " SELECT id, 2, 0, 'success' FROM {s}.system_config");
        try {
            CliRun up = CliRun.run(environment, "migrate", "system", "up", "--to", "1");
            CliRun down = CliRun.run(environment, "migrate", "system", "down", "--to", "1", "-o", "json");

            assertThat(up.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(up.errLines()).singleElement().asString().contains("migrating up cannot go from the system"
                    + " scope's DDL version 2 to 1");
            assertThat(down.exitCode()).isEqualTo(ExitCodes.FAILED);
            assertThat(down.error().getString("code")).isEqualTo("SQL0023");
            assertThat(down.error().getString("problem")).startsWith("the system scope is at DDL version 2 and this"
                    + " build has no step to migrate it down to 1");
            assertThat(up.out() + down.out()).isEmpty();
        } finally {
            sql.update("DELETE FROM {s}.migration_log WHERE version = 2");
        }
    }

    @Test
    void anotherSessionHoldingTheMigrationLockRefusesTheRun(TestDatabase database) throws SQLException {
        try (Connection holder = database.dataSource().getConnection();
             Statement statement = holder.createStatement()) {
            holder.setAutoCommit(false);
            statement.execute("SELECT pg_advisory_xact_lock(hashtextextended('sqlstreams.migrations:"
                    + database.schema() + "', 0))");

            CliRun locked = CliRun.run(environment, "migrate", "streams", "down", "--to", "1", "-o", "json");

            assertThat(locked.exitCode()).isEqualTo(ExitCodes.FAILED);
            assertThat(locked.error().getString("code")).isEqualTo("SQL0053");
            assertThat(locked.error().getString("problem")).startsWith("another migration of schema "
                    + database.schema() + " holds the migration lock: pid ");
            assertThat(locked.out()).isEmpty();
            holder.rollback();
        }
        assertThat(CliRun.run(environment, "migrate", "streams", "down", "--to", "1").exitCode()).isZero();
    }

    @Test
    void anUnknownStreamOrAMissingInstallationIsAbsent(TestDatabase database) {
        CliRun stream = CliRun.run(environment, "migrate", "stream", "up", "orders.missing", "--to", "1");
        CliRun bare = CliRun.run(environment, "migrate", "system", "up", "--to", "1", "--schema",
                database.extraSchema("bare"));

        assertThat(List.of(stream, bare)).extracting(CliRun::exitCode).containsOnly(ExitCodes.ABSENT);
        assertThat(stream.err()).startsWith("SQL0005 ");
        assertThat(bare.err()).startsWith("SQL0017 ");
    }
}
