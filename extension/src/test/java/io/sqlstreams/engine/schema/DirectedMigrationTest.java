package io.sqlstreams.engine.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.StoredMessage;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.schema.DirectedMigration.Direction;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.testing.PostgresTest;

/**
 * {@link DirectedMigration} on an installation this build created (system scope and streams at version 2): the
 * stream scope's step 2 (message headers) and the system scope's step 2 (the streams' fence warning) down and up
 * again with the gate in between, {@code streams up}, the target and direction checks, the migration lock and a
 * busy table, and hand-made versions this build has no step for. Every test leaves every scope at its build
 * version.
 */
@PostgresTest
class DirectedMigrationTest extends EngineTestBase {
    @SchemaVersion(1)
    public record Note(String text) {
    }

    private static final int SYSTEM = DdlScope.SYSTEM.buildVersion();

    private DirectedMigration migration;
    private io.sqlstreams.testing.Sql sql;

    @BeforeEach
    void registerStreams() {
        client.stream("migrate.a", Note.class).register();
        client.stream("migrate.b", Note.class).register();
        Engine engine = EngineFixtures.engine(database, logger);
        migration = new DirectedMigration(engine.database(), engine.sql());
        sql = new io.sqlstreams.testing.Sql(database);
    }

    @Test
    void aNewStreamIsCreatedAtStreamVersionTwoWithTheHeadersColumn() throws SQLException {
        long id = client.stream("migrate.new", Note.class).register().id();

        assertThat(newestSuccess(id)).isEqualTo(List.of("2", "0"));
        assertThat(sql.count("SELECT count(*) FROM {s}.migration_log WHERE stream_id = ?", id)).isEqualTo(1);
        assertThat(hasHeaders(id)).isTrue();
    }

    @Test
    void aScopeAtTheTargetIsLeftAloneEitherWay() throws SQLException {
        long logged = sql.count("SELECT count(*) FROM {s}.migration_log");

        assertThat(List.of(migration.system(Direction.UP, SYSTEM), migration.system(Direction.DOWN, SYSTEM),
                migration.streams(Direction.UP, 2), migration.streams(Direction.DOWN, 2),
                migration.stream("migrate.a", Direction.UP, 2), migration.stream("migrate.b", Direction.DOWN, 2)))
                .containsOnly(0);
        assertThat(sql.count("SELECT count(*) FROM {s}.migration_log")).isEqualTo(logged);
    }

    @Test
    void aTargetOutsideTheScopesVersionsIsInvalid() {
        for (int target : List.of(0, -1, SYSTEM + 1)) {
            SqlStreamsException invalid = refusal(() -> migration.system(Direction.UP, target));
            assertThat(invalid.code()).as("target %d", target).isEqualTo(Code.SQL0108);
            assertThat(invalid.getMessage()).contains("migration target = " + target + ": must be from 1 to " + SYSTEM
                    + ", the system DDL versions this build knows");
        }
        for (int target : List.of(0, 3)) {
            SqlStreamsException invalid = refusal(() -> migration.stream("migrate.a", Direction.DOWN, target));
            assertThat(invalid.code()).as("target %d", target).isEqualTo(Code.SQL0108);
            assertThat(invalid.getMessage()).contains("must be from 1 to 2, the stream DDL versions this build knows");
        }
    }

    @Test
    void downToOneDropsTheHeadersAndTheGateRefusesTheStreamUntilItIsMigratedUpAgain() throws SQLException {
        long id = streamId("migrate.a");
        StreamHandle<Note> stream = client.stream("migrate.a", Note.class);

        assertThat(migration.stream("migrate.a", Direction.DOWN, 1)).isEqualTo(1);

        assertThat(hasHeaders(id)).isFalse();
        assertThat(newestSuccess(id)).isEqualTo(List.of("1", "0"));
        SqlStreamsException register = refusal(() -> {
            EngineFixtures.client(database, logger).stream("migrate.a", Note.class).register();
            return 0;
        });
        assertThat(register.code()).isEqualTo(Code.SQL0022);
        assertThat(register.getMessage()).contains("stream migrate.a is at DDL version 1; this build needs stream DDL"
                + " version 2: migrate it up first");
        assertThat(refusal(() -> {
            stream.producer().register().close();
            return 0;
        }).code()).isEqualTo(Code.SQL0022);
        assertThat(migration.stream("migrate.b", Direction.UP, 2)).as("the other stream").isZero();

        assertThat(migration.stream("migrate.a", Direction.UP, 2)).isEqualTo(1);

        assertThat(hasHeaders(id)).isTrue();
        assertThat(newestSuccess(id)).isEqualTo(List.of("2", "0"));
        try (Producer<Note> producer = stream.producer().register()) {
            producer.produce(new Note("after the round trip"), ProduceOptions.builder().messageKey("n").build());
        }
        assertThat(stream.key("n").messages(10)).extracting(StoredMessage::message)
                .containsExactly(new Note("after the round trip"));
    }

    @Test
    void systemDownToOneDropsTheFenceWarningAndTheGateRefusesTheInstallationUntilItIsMigratedUpAgain()
            throws SQLException {
        client.stream("migrate.settings", Note.class).register(StreamConfig.builder()
                .retentionTtl(Duration.ofDays(3)).fenceWarnAfter(Duration.ofSeconds(3)).build());
        try {
            assertThat(migration.system(Direction.DOWN, 1)).isEqualTo(1);

            assertThat(fenceWarningColumns()).isEmpty();
            assertThat(newestSystemSuccess()).isEqualTo(List.of("1", "0"));
            SqlStreamsException register = refusal(() -> {
                EngineFixtures.client(database, logger).stream("migrate.settings", Note.class).register();
                return 0;
            });
            assertThat(register.code()).isEqualTo(Code.SQL0022);
            assertThat(register.getMessage()).contains("the installation in schema " + database.schema() + " is at DDL"
                    + " version 1; this build needs system DDL version " + SYSTEM + ": migrate it up first");

            assertThat(migration.system(Direction.UP, SYSTEM)).isEqualTo(1);

            assertThat(fenceWarningColumns()).containsExactly("stream_config", "stream_config_log");
            assertThat(newestSystemSuccess()).isEqualTo(List.of(Integer.toString(SYSTEM), "0"));
            Stream migrated = EngineFixtures.client(database, logger).stream("migrate.settings", Note.class)
                    .register(StreamConfig.builder().retentionTtl(Duration.ofDays(3)).build());
            assertThat(migrated.retentionTtl()).as("the other settings stayed").isEqualTo(Duration.ofDays(3));
            assertThat(migrated.fenceWarnAfter()).as("down dropped the stored 3 s; up reads the default")
                    .isEqualTo(StreamConfig.DEFAULT_FENCE_WARN_AFTER);
            assertThat(logger.withCode("SQL0061")).as("the column's default is the declaration's").isEmpty();
            assertThat(sql.strings("SELECT DISTINCT fence_warn_after_ns::text FROM (SELECT fence_warn_after_ns"
                    + " FROM {s}.stream_config UNION ALL SELECT fence_warn_after_ns FROM {s}.stream_config_log) t"))
                    .as("every row of both tables reads the column's default").containsExactly("10000000000");
        } finally {
            migration.system(Direction.UP, SYSTEM);
        }
    }

    @Test
    void aSharedTableAnotherTransactionHoldsIsNamedWhenTheSystemStepCannotTakeIt() throws SQLException {
        try (Connection holder = database.dataSource().getConnection();
             Statement statement = holder.createStatement()) {
            holder.setAutoCommit(false);
            statement.execute("SET application_name = 'config-reader'");
            statement.execute("LOCK TABLE " + database.schema() + ".stream_config IN ACCESS SHARE MODE");
            int pid = backendPid(holder);

            SqlStreamsException busy = refusal(() -> migration.system(Direction.DOWN, 1));

            assertThat(busy.code()).isEqualTo(Code.SQL0053);
            assertThat(busy.getMessage()).contains("the system scope could not take its step to DDL version 1: table "
                    + database.schema() + ".stream_config stayed locked through 3 attempts of 2 s each, held by pid "
                    + pid + " (application \"config-reader\"");
            holder.rollback();
        }
        assertThat(fenceWarningColumns()).containsExactly("stream_config", "stream_config_log");
        assertThat(newestSystemSuccess()).isEqualTo(List.of(Integer.toString(SYSTEM), "0"));
    }

    @Test
    void streamsUpMigratesEveryStreamBelowTheTargetAndCountsThem() throws SQLException {
        client.stream("migrate.c", Note.class).register();
        migration.stream("migrate.a", Direction.DOWN, 1);
        migration.stream("migrate.c", Direction.DOWN, 1);
        long bLogged = sql.count("SELECT count(*) FROM {s}.migration_log WHERE stream_id = ?", streamId("migrate.b"));

        assertThat(migration.streams(Direction.UP, 2)).isEqualTo(2);

        for (String name : List.of("migrate.a", "migrate.b", "migrate.c")) {
            assertThat(newestSuccess(streamId(name))).as(name).isEqualTo(List.of("2", "0"));
            assertThat(hasHeaders(streamId(name))).as(name).isTrue();
        }
        assertThat(sql.count("SELECT count(*) FROM {s}.migration_log WHERE stream_id = ?", streamId("migrate.b")))
                .as("the stream already at 2").isEqualTo(bLogged);
        assertThat(migration.streams(Direction.UP, 2)).isZero();
    }

    @Test
    void aHandMadeVersionAboveTheBuildsRefusesUpAsTheWrongWayAndDownForWantOfAStep() throws SQLException {
        long streamId = streamId("migrate.b");
        int aboveSystem = SYSTEM + 1;
        sql.update("INSERT INTO {s}.migration_log (system_id, version, min_compatible_version, status)"
                + " SELECT id, ?, 0, 'success' FROM {s}.system_config", aboveSystem);
        sql.update("INSERT INTO {s}.migration_log (stream_id, version, min_compatible_version, status)"
                + " VALUES (?, 3, 0, 'success')", streamId);
        try {
            SqlStreamsException up = refusal(() -> migration.system(Direction.UP, 1));
            SqlStreamsException down = refusal(() -> migration.system(Direction.DOWN, 1));
            SqlStreamsException streamUp = refusal(() -> migration.stream("migrate.b", Direction.UP, 2));
            SqlStreamsException streams = refusal(() -> migration.streams(Direction.DOWN, 1));

            assertThat(up.code()).isEqualTo(Code.SQL0108);
            assertThat(up.getMessage()).contains("migrating up cannot go from the system scope's DDL version "
                    + aboveSystem + " to 1");
            assertThat(down.code()).isEqualTo(Code.SQL0023);
            assertThat(down.getMessage()).contains("the system scope is at DDL version " + aboveSystem + " and this"
                    + " build has no step to migrate it down to 1: it knows system DDL versions 1 to " + SYSTEM);
            assertThat(streamUp.code()).isEqualTo(Code.SQL0108);
            assertThat(streams.code()).isEqualTo(Code.SQL0023);
            assertThat(streams.getMessage()).contains("1 stream(s) refused: SQL0023 stream \"migrate.b\" is at DDL"
                    + " version 3");
            assertThat(newestSuccess(streamId("migrate.a"))).as("the other stream went down all the same")
                    .isEqualTo(List.of("1", "0"));
        } finally {
            sql.update("DELETE FROM {s}.migration_log WHERE (stream_id IS NOT NULL AND version = 3)"
                    + " OR (system_id IS NOT NULL AND version = ?)", aboveSystem);
            migration.streams(Direction.UP, 2);
        }
    }

    @Test
    void anotherSessionHoldingTheMigrationLockIsNamedNotAwaited() throws SQLException {
        long logged = sql.count("SELECT count(*) FROM {s}.migration_log");
        try (Connection holder = database.dataSource().getConnection();
             Statement statement = holder.createStatement()) {
            holder.setAutoCommit(false);
            statement.execute("SET application_name = 'hand-migration'");
            statement.execute("SELECT pg_advisory_xact_lock(hashtextextended('sqlstreams.migrations:"
                    + database.schema() + "', 0))");
            int pid = backendPid(holder);

            SqlStreamsException locked = refusal(() -> migration.system(Direction.UP, SYSTEM));
            SqlStreamsException streamLocked = refusal(() -> migration.stream("migrate.a", Direction.DOWN, 1));

            assertThat(locked.code()).isEqualTo(Code.SQL0053);
            assertThat(locked.getMessage()).contains("holds the migration lock: pid " + pid
                    + " (application \"hand-migration\"");
            assertThat(streamLocked.code()).isEqualTo(Code.SQL0053);
            holder.rollback();
        }
        assertThat(sql.count("SELECT count(*) FROM {s}.migration_log")).isEqualTo(logged);
        assertThat(hasHeaders(streamId("migrate.a"))).isTrue();
        assertThat(migration.system(Direction.UP, SYSTEM)).as("once the lock is let go").isZero();
    }

    @Test
    void aTableAnotherTransactionHoldsIsRefusedAfterTheRetriesNamingTheSession() throws SQLException {
        long id = streamId("migrate.a");
        try (Connection holder = database.dataSource().getConnection();
             Statement statement = holder.createStatement()) {
            holder.setAutoCommit(false);
            statement.execute("SET application_name = 'long-reader'");
            statement.execute("LOCK TABLE " + database.schema() + ".message_log_" + id + " IN ACCESS SHARE MODE");
            int pid = backendPid(holder);

            SqlStreamsException busy = refusal(() -> migration.stream("migrate.a", Direction.DOWN, 1));

            assertThat(busy.code()).isEqualTo(Code.SQL0053);
            assertThat(busy.getMessage()).contains("stream \"migrate.a\" could not take its step to DDL version 1:"
                    + " table " + database.schema() + ".message_log_" + id + " stayed locked through 3 attempts of"
                    + " 2 s each, held by pid " + pid + " (application \"long-reader\"");
            holder.rollback();
        }
        assertThat(hasHeaders(id)).isTrue();
        assertThat(newestSuccess(id)).isEqualTo(List.of("2", "0"));
        assertThat(sql.strings("SELECT version || ' ' || status || ' ' || error FROM {s}.migration_log"
                + " WHERE stream_id = ? AND status = 'failure'", id))
                .hasSize(StepWalk.ATTEMPTS).allSatisfy(row -> assertThat(row).startsWith("1 failure [55P03]"));
    }

    @Test
    void anUnknownStreamOrAMissingInstallationIsNotFound() {
        DirectedMigration empty = new DirectedMigration(EngineFixtures.engine(database, logger).database(),
                new Sql(database.extraSchema("bare")));

        assertThat(refusal(() -> migration.stream("migrate.missing", Direction.UP, 2)).code()).isEqualTo(Code.SQL0005);
        assertThat(refusal(() -> empty.system(Direction.UP, 1)).code()).isEqualTo(Code.SQL0017);
        assertThat(refusal(() -> empty.streams(Direction.DOWN, 1)).code()).isEqualTo(Code.SQL0017);
    }

    private long streamId(String name) {
        return client.stream(name, Note.class).get().orElseThrow().id();
    }

    /** The stream's newest successful migration_log row: its version and min_compatible_version. */
    private List<String> newestSuccess(long streamId) throws SQLException {
        return sql.table("SELECT version, min_compatible_version FROM {s}.migration_log"
                + " WHERE stream_id = ? AND status = 'success' ORDER BY id DESC LIMIT 1", streamId).get(0);
    }

    private List<String> newestSystemSuccess() throws SQLException {
        return sql.table("SELECT version, min_compatible_version FROM {s}.migration_log"
                + " WHERE system_id IS NOT NULL AND status = 'success' ORDER BY id DESC LIMIT 1").get(0);
    }

    /** The shared tables that hold the streams' fence warning threshold. */
    private List<String> fenceWarningColumns() throws SQLException {
        return sql.strings("SELECT table_name::text FROM information_schema.columns WHERE table_schema = ?"
                + " AND column_name = 'fence_warn_after_ns' ORDER BY table_name", database.schema());
    }

    private boolean hasHeaders(long streamId) throws SQLException {
        return sql.count("SELECT count(*) FROM information_schema.columns WHERE table_schema = ?"
                + " AND table_name = ? AND column_name = 'headers'", database.schema(), "message_log_" + streamId) == 1;
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
