package io.sqlstreams.engine.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.Code;
import io.sqlstreams.DestroyOptions;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.SystemConfig;
import io.sqlstreams.SystemHandle;
import io.sqlstreams.SystemState;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.schema.DdlScope;
import io.sqlstreams.engine.worker.WorkerInstance;
import io.sqlstreams.engine.worker.WorkerRig;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;

/** Digest §8.2: the system verbs, each test on an installation schema of its own. */
@PostgresTest
class SystemHandleTest {
    private static final AtomicInteger SCHEMAS = new AtomicInteger();

    private TestDatabase database;
    private String schema;
    private EngineClient client;
    private Sql sql;

    @BeforeEach
    void openClient(TestDatabase database) {
        this.database = database;
        this.schema = database.extraSchema("sys" + SCHEMAS.incrementAndGet());
        this.client = clientOn(schema, true);
        this.sql = new Sql(database.dataSource(), schema);
    }

    @AfterEach
    void closeClient() {
        client.close();
    }

    private EngineClient clientOn(String schema, boolean allowDestroy) {
        return EngineClient.create(database.dataSource(), ClientConfig.builder().schema(schema)
                .allowDestroy(allowDestroy).logger(new RecordingLogger()).build(), EngineEnvironment.standalone());
    }

    private static void assertRefused(Code code, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(SqlStreamsException.class, failure -> {
            assertThat(failure.code()).isEqualTo(code);
            assertThat(failure.getMessage()).startsWith(code.id() + " ");
        });
    }

    private boolean schemaExists(String name) throws SQLException {
        return sql.bool("SELECT to_regnamespace(?) IS NOT NULL", name);
    }

    private long managerTarget() throws SQLException {
        return sql.count("SELECT target_instances FROM {s}.worker_config"
                + " WHERE system_id IS NOT NULL AND name = 'manager'");
    }

    @Test
    void registerCreatesTheInstallationAndGetReadsItBack() {
        SystemHandle system = client.system();

        system.register(new SystemConfig(Duration.ofSeconds(10)));
        client.stream("system.counted", Object.class).register();
        SystemState state = system.get();

        assertThat(state.schema()).isEqualTo(schema);
        assertThat(state.systemId()).isPositive();
        assertThat(state.version()).isEqualTo(DdlScope.SYSTEM.buildVersion());
        assertThat(state.minCompatibleVersion()).isZero();
        assertThat(state.config()).isEqualTo(new SystemConfig(Duration.ofSeconds(10)));
        assertThat(state.createdAt()).isNotNull();
        assertThat(state.streams()).isEqualTo(1);
        assertThat(state.liveInstances()).isZero();
    }

    @Test
    void aRedeclarationReplacesTheDocumentAndKeepsASuspendedManager() throws SQLException {
        client.system().register(new SystemConfig(Duration.ofSeconds(10)));
        sql.update("UPDATE {s}.worker_config SET target_instances = 0 WHERE system_id IS NOT NULL AND name = 'manager'");

        client.system().register(new SystemConfig(Duration.ofSeconds(20)));

        assertThat(managerTarget()).isZero();
        assertThat(client.system().get().config().managerPollRate()).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void aNegativePollRateIsSql0108AndCreatesNothing() throws SQLException {
        assertRefused(Code.SQL0108, () -> client.system().register(new SystemConfig(Duration.ofSeconds(-1))));

        assertThat(schemaExists(schema)).isFalse();
    }

    @Test
    void theReadingVerbsOfAMissingInstallationAreSql0017() {
        assertRefused(Code.SQL0017, () -> client.system().get());
        assertRefused(Code.SQL0017, () -> client.system().migrationVersion());
        assertRefused(Code.SQL0017, () -> client.system().destroy(DestroyOptions.forced()));
    }

    @Test
    void migrateCreatesTheInstallationAtThisBuildsVersion() {
        int build = DdlScope.SYSTEM.buildVersion();

        assertThat(client.system().migrate()).isEqualTo(build);

        assertThat(client.system().migrationVersion()).isEqualTo(build);
        assertThat(client.system().migrate()).isEqualTo(build);
    }

    @Test
    void migrateRefusesADatabaseThatNeedsANewerLibrary() throws SQLException {
        client.system().migrate();
        int newer = DdlScope.SYSTEM.buildVersion() + 1;
        sql.update("INSERT INTO {s}.migration_log (system_id, version, min_compatible_version, status)"
                + " SELECT id, ?, ?, 'success' FROM {s}.system_config", newer, newer);

        try (EngineClient later = clientOn(schema, true)) {
            assertRefused(Code.SQL0023, () -> later.system().migrate());
            assertThat(later.system().migrationVersion()).isEqualTo(newer);
        }
    }

    @Test
    void destroyNeedsAllowDestroy() {
        client.system().register(SystemConfig.defaults());

        try (EngineClient guarded = clientOn(schema, false)) {
            assertRefused(Code.SQL0008, () -> guarded.system().destroy(DestroyOptions.forced()));
        }
        assertThat(client.system().get().version()).isEqualTo(DdlScope.SYSTEM.buildVersion());
    }

    @Test
    void aGuardedDestroyRefusesRegisteredStreamsAndAForcedOneDropsThem() throws SQLException {
        client.stream("system.doomed", Object.class).register();

        assertRefused(Code.SQL0011, () -> client.system().destroy(DestroyOptions.guarded()));
        assertThat(client.streams()).hasSize(1);

        client.system().destroy(DestroyOptions.forced());

        assertThat(schemaExists(schema)).isFalse();
        assertThat(client.streams()).isEmpty();
    }

    @Test
    void aGuardedDestroyOfAnEmptyInstallationDropsItsSchema() throws SQLException {
        client.system().register(SystemConfig.defaults());

        client.system().destroy(DestroyOptions.guarded());

        assertThat(schemaExists(schema)).isFalse();
        assertRefused(Code.SQL0017, () -> client.system().get());
    }

    @Test
    void destroyLeavesASchemaHoldingAForeignTable() throws SQLException {
        database.execute("CREATE SCHEMA " + schema);
        database.execute("CREATE TABLE " + schema + ".orders (id bigint PRIMARY KEY)");
        client.stream("system.beside", Object.class).register();

        client.system().destroy(DestroyOptions.forced());

        assertThat(schemaExists(schema)).isTrue();
        assertThat(sql.strings("SELECT relname FROM pg_class WHERE relnamespace = to_regnamespace(?) AND relkind = 'r'",
                schema)).containsExactly("orders");
        assertRefused(Code.SQL0017, () -> client.system().get());
    }

    @Test
    void registerAfterDestroyCreatesTheInstallationAfresh() {
        client.stream("system.before", Object.class).register();
        client.system().destroy(DestroyOptions.forced());

        client.system().register(SystemConfig.defaults());
        client.stream("system.after", Object.class).register();

        SystemState state = client.system().get();
        assertThat(state.streams()).isEqualTo(1);
        assertThat(client.streams()).extracting(io.sqlstreams.Stream::name).containsExactly("system.after");
    }

    @Test
    void aLiveInstanceIsSql0010UnlessForced(TestDatabase database) throws SQLException {
        try (EngineClient onClassSchema = clientOn(database.schema(), true)) {
            onClassSchema.system().register(SystemConfig.defaults());
            Sql classSql = new Sql(database);
            long managerId = classSql.count("SELECT id FROM {s}.worker_config"
                    + " WHERE system_id IS NOT NULL AND name = 'manager'");
            WorkerInstance.claim(new WorkerRig(database).engine, managerId, "the test's manager", WorkerRig.TTL)
                    .orElseThrow();
            assertThat(onClassSchema.system().get().liveInstances()).isEqualTo(1);

            assertRefused(Code.SQL0010, () -> onClassSchema.system().destroy(DestroyOptions.guarded()));
            assertThat(onClassSchema.system().get().version()).isEqualTo(DdlScope.SYSTEM.buildVersion());

            onClassSchema.system().destroy(DestroyOptions.forced());

            assertThat(classSql.bool("SELECT to_regnamespace(?) IS NOT NULL", database.schema())).isFalse();
        }
    }
}
