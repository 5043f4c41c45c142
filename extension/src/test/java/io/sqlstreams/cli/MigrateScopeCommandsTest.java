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
import io.sqlstreams.engine.schema.DdlScope;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.Json;

/**
 * {@code migrate system|streams|stream up|down --to N} on an installation with two streams, created at this build's
 * versions (system 2, stream 2).
 */
@PostgresTest
class MigrateScopeCommandsTest {
    private static final String SYSTEM = Integer.toString(DdlScope.SYSTEM.buildVersion());
    private static final String ABOVE_SYSTEM = Integer.toString(DdlScope.SYSTEM.buildVersion() + 1);
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
        CliRun system = CliRun.run(environment, "migrate", "system", "up", "--to", SYSTEM);
        CliRun stream = CliRun.run(environment, "migrate", "stream", "down", "payments.requested", "--to", "2",
                "-o", "json");
        CliRun streams = CliRun.run(environment, "migrate", "streams", "up", "--to", "2", "-o", "json");

        assertThat(List.of(system, stream, streams)).extracting(CliRun::exitCode).containsOnly(ExitCodes.OK);
        assertThat(TextTables.fields(system.outLines())).containsExactly(Map.entry("to", SYSTEM),
                Map.entry("migrated_count", "0"));
        assertThat(stream.json()).isEqualTo(Json.createObjectBuilder().add("stream", "payments.requested")
                .add("to", 2).add("migrated_count", 0).build());
        assertThat(streams.json()).isEqualTo(Json.createObjectBuilder().add("to", 2).add("migrated_count", 0)
                .build());
    }

    @Test
    void aStreamGoesDownAndUpAndStreamsUpCountsTheStreamsItMigrated() throws SQLException {
        CliRun down = CliRun.run(environment, "migrate", "stream", "down", "orders.created", "--to", "1", "-o",
                "json");
        CliRun up = CliRun.run(environment, "migrate", "stream", "up", "orders.created", "--to", "2");
        CliRun downAgain = CliRun.run(environment, "migrate", "stream", "down", "orders.created", "--to", "1");
        CliRun streamsUp = CliRun.run(environment, "migrate", "streams", "up", "--to", "2", "-o", "json");

        assertThat(List.of(down, up, downAgain, streamsUp)).extracting(CliRun::exitCode).as(down.err())
                .containsOnly(ExitCodes.OK);
        assertThat(down.json()).isEqualTo(Json.createObjectBuilder().add("stream", "orders.created").add("to", 1)
                .add("migrated_count", 1).build());
        assertThat(TextTables.fields(up.outLines())).containsExactly(Map.entry("stream", "orders.created"),
                Map.entry("to", "2"), Map.entry("migrated_count", "1"));
        assertThat(streamsUp.json()).as("payments.requested was at 2 already").isEqualTo(Json.createObjectBuilder()
                .add("to", 2).add("migrated_count", 1).build());
        assertThat(sql.strings("SELECT m.version FROM {s}.stream_config s JOIN LATERAL (SELECT version"
                + " FROM {s}.migration_log WHERE stream_id = s.id AND status = 'success' ORDER BY id DESC LIMIT 1) m"
                + " ON true ORDER BY s.name")).containsOnly("2");
    }

    @Test
    void theSystemScopeGoesDownDroppingTheFenceWarningAndUpAgain() throws SQLException {
        CliRun down = CliRun.run(environment, "migrate", "system", "down", "--to", "1", "-o", "json");
        List<String> columnsWhileDown = fenceWarningColumns();
        CliRun status = CliRun.run(environment, "migrate", "status", "-o", "json");
        CliRun up = CliRun.run(environment, "migrate", "system", "up", "--to", SYSTEM);

        assertThat(List.of(down, up)).extracting(CliRun::exitCode).as(down.err() + up.err())
                .containsOnly(ExitCodes.OK);
        assertThat(down.json()).isEqualTo(Json.createObjectBuilder().add("to", 1).add("migrated_count", 1).build());
        assertThat(columnsWhileDown).isEmpty();
        assertThat(status.json().asJsonObject().getJsonObject("system").getString("status")).isEqualTo("behind");
        assertThat(TextTables.fields(up.outLines())).containsExactly(Map.entry("to", SYSTEM),
                Map.entry("migrated_count", "1"));
        assertThat(fenceWarningColumns()).containsExactly("stream_config", "stream_config_log");
        assertThat(sql.strings("SELECT fence_warn_after_ns::text FROM {s}.stream_config")).containsOnly("10000000000");
    }

    @Test
    void aTargetOutsideOneToTheScopesBuildVersionOrNoneIsAUsageError() {
        CliRun zero = CliRun.run(environment, "migrate", "system", "up", "--to", "0");
        CliRun systemTwo = CliRun.run(environment, "migrate", "system", "up", "--to", ABOVE_SYSTEM);
        CliRun three = CliRun.run(environment, "migrate", "stream", "up", "orders.created", "--to", "3", "-o",
                "json");
        CliRun missing = CliRun.run(environment, "migrate", "streams", "down");
        CliRun notANumber = CliRun.run(environment, "migrate", "system", "down", "--to", "one");

        assertThat(List.of(zero, systemTwo, three, missing, notANumber)).extracting(CliRun::exitCode)
                .containsOnly(ExitCodes.USAGE);
        assertThat(zero.errLines()).singleElement().asString().startsWith("SQL0108 invalid configuration: migration"
                + " target = 0: must be from 1 to " + SYSTEM + ", the system DDL versions this build knows");
        assertThat(systemTwo.errLines()).singleElement().asString().contains("migration target = " + ABOVE_SYSTEM
                + ": must be from 1 to " + SYSTEM);
        assertThat(three.error().getString("code")).isEqualTo("SQL0108");
        assertThat(three.error().getString("problem")).contains("must be from 1 to 2, the stream DDL versions");
        assertThat(missing.errLines()).singleElement().asString().startsWith("usage: Missing required option:"
                + " '--to=N'");
        assertThat(notANumber.err()).startsWith("usage: ");
        assertThat(zero.out() + systemTwo.out() + three.out() + missing.out() + notANumber.out()).isEmpty();
    }

    @Test
    void aHandMadeVersionAboveTheBuildsRefusesUpAsTheWrongWayAndDownForWantOfAStep() throws SQLException {
        sql.update("INSERT INTO {s}.migration_log (system_id, version, min_compatible_version, status)"
                + " SELECT id, ?, 0, 'success' FROM {s}.system_config", DdlScope.SYSTEM.buildVersion() + 1);
        try {
            CliRun up = CliRun.run(environment, "migrate", "system", "up", "--to", "1");
            CliRun down = CliRun.run(environment, "migrate", "system", "down", "--to", "1", "-o", "json");

            assertThat(up.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(up.errLines()).singleElement().asString().contains("migrating up cannot go from the system"
                    + " scope's DDL version " + ABOVE_SYSTEM + " to 1");
            assertThat(down.exitCode()).isEqualTo(ExitCodes.FAILED);
            assertThat(down.error().getString("code")).isEqualTo("SQL0023");
            assertThat(down.error().getString("problem")).startsWith("the system scope is at DDL version "
                    + ABOVE_SYSTEM + " and this build has no step to migrate it down to 1");
            assertThat(up.out() + down.out()).isEmpty();
        } finally {
            sql.update("DELETE FROM {s}.migration_log WHERE system_id IS NOT NULL AND version = ?",
                    DdlScope.SYSTEM.buildVersion() + 1);
        }
    }

    private static List<String> fenceWarningColumns() throws SQLException {
        return sql.strings("SELECT table_name::text FROM information_schema.columns WHERE table_schema = ?"
                + " AND column_name = 'fence_warn_after_ns' ORDER BY table_name", sql.schema());
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
            assertThat(locked.error().getString("problem")).startsWith("2 stream(s) refused: SQL0053 another"
                    + " migration of schema " + database.schema() + " holds the migration lock: pid ");
            assertThat(locked.out()).isEmpty();
            holder.rollback();
        }
        assertThat(CliRun.run(environment, "migrate", "streams", "down", "--to", "2").exitCode()).isZero();
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
