package io.sqlstreams.engine.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.Code;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineClient;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

/**
 * The DDL version gate (digest §8.3) as {@code SchemaMigrator} implements it for this build (version 1 of both
 * scopes): a successful migration_log step whose min_compatible_version is above 1 refuses the stream or the
 * installation with SQL0023; a stream without any successful step is older than the build (SQL0022); failed
 * steps and additive steps (min_compatible_version ≤ 1) do not gate. migration_log is tampered with directly.
 */
@PostgresTest
class MigrationGateTest {
    @SchemaVersion(1)
    public record Tick(long n) {
    }

    private static EngineClient newClient(TestDatabase database) {
        return EngineFixtures.client(database, new RecordingLogger());
    }

    private static EngineClient newClientOn(TestDatabase database, String schema) {
        return EngineClient.create(database.dataSource(),
                ClientConfig.builder().schema(schema).allowDestroy(true).logger(new RecordingLogger()).build(),
                EngineEnvironment.standalone());
    }

    private static void recordStreamStep(SchemaProbe probe, long streamId, int version, int minCompatible,
                                         String status) throws SQLException {
        probe.update("INSERT INTO " + probe.schema() + ".migration_log (stream_id, version, min_compatible_version,"
                + " status, error) VALUES (?, ?, ?, ?, ?)", streamId, version, minCompatible, status,
                status.equals("failure") ? "simulated" : null);
    }

    private static void recordSystemStep(SchemaProbe probe, int version, int minCompatible) throws SQLException {
        probe.update("INSERT INTO " + probe.schema() + ".migration_log (system_id, version, min_compatible_version,"
                + " status) SELECT id, ?, ?, 'success' FROM " + probe.schema() + ".system_config", version, minCompatible);
    }

    private static SqlStreamsException failure(Runnable call) {
        SqlStreamsException failure = catchThrowableOfType(call::run, SqlStreamsException.class);
        assertThat(failure).as("expected a SqlStreamsException").isNotNull();
        return failure;
    }

    private static void registerProducer(StreamHandle<Tick> stream) {
        try (Producer<Tick> producer = stream.producer().register()) {
            assertThat(producer).isNotNull();
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // stream scope

    @Test
    void aStreamStepNeedingANewerBuildRefusesRegisterAndProducers(TestDatabase database) throws SQLException {
        SchemaProbe probe = new SchemaProbe(database);
        EngineClient original = newClient(database);
        StreamHandle<Tick> stream = original.stream("gate.stream.newer", Tick.class);
        Stream registered = stream.register();
        registerProducer(stream);
        recordStreamStep(probe, registered.id(), 2, 2, "success");
        List<List<String>> rowBefore = probe.table("SELECT * FROM " + database.schema() + ".stream_config WHERE id = ?",
                registered.id());
        long logsBefore = probe.rows("stream_config_log", "stream_id = ?", registered.id());

        EngineClient fresh = newClient(database);
        StreamHandle<Tick> viaFresh = fresh.stream("gate.stream.newer", Tick.class);
        SqlStreamsException register = failure(() -> viaFresh.register());
        assertThat(register.code()).isEqualTo(Code.SQL0023);
        assertThat(register.isTransient()).isFalse();
        assertThat(register.getMessage()).startsWith("SQL0023 ").contains("gate.stream.newer").contains("2");
        assertThat(failure(() -> registerProducer(viaFresh)).code()).isEqualTo(Code.SQL0023);
        // the stream check is not cached: the client that registered the stream is refused too
        assertThat(failure(() -> stream.register()).code()).isEqualTo(Code.SQL0023);
        assertThat(failure(() -> registerProducer(stream)).code()).isEqualTo(Code.SQL0023);

        // a refused declaration changes nothing, even a differing one
        assertThat(failure(() -> viaFresh.register(StreamConfig.builder().retentionTtl(Duration.ofHours(1)).build()))
                .code()).isEqualTo(Code.SQL0023);
        assertThat(probe.table("SELECT * FROM " + database.schema() + ".stream_config WHERE id = ?", registered.id()))
                .isEqualTo(rowBefore);
        assertThat(probe.rows("stream_config_log", "stream_id = ?", registered.id())).isEqualTo(logsBefore);

        // other streams of the installation are unaffected
        StreamHandle<Tick> other = fresh.stream("gate.stream.unaffected", Tick.class);
        other.register();
        registerProducer(other);
        // and reading the gated stream still works
        assertThat(viaFresh.get()).isPresent();
    }

    @Test
    void additiveAndFailedStreamStepsDoNotGate(TestDatabase database) throws SQLException {
        SchemaProbe probe = new SchemaProbe(database);
        EngineClient client = newClient(database);

        Stream additive = client.stream("gate.stream.additive", Tick.class).register();
        recordStreamStep(probe, additive.id(), 2, 0, "success");
        Stream compatible = client.stream("gate.stream.compatible", Tick.class).register();
        recordStreamStep(probe, compatible.id(), 3, 1, "success");
        Stream failed = client.stream("gate.stream.failed", Tick.class).register();
        recordStreamStep(probe, failed.id(), 2, 2, "failure");

        EngineClient fresh = newClient(database);
        for (String name : List.of("gate.stream.additive", "gate.stream.compatible", "gate.stream.failed")) {
            StreamHandle<Tick> stream = fresh.stream(name, Tick.class);
            assertThat(stream.register().name()).isEqualTo(name);
            registerProducer(stream);
        }
    }

    @Test
    void aStreamWithoutASuccessfulStepIsOlderThanTheBuild(TestDatabase database) throws SQLException {
        SchemaProbe probe = new SchemaProbe(database);
        EngineClient client = newClient(database);
        StreamHandle<Tick> stream = client.stream("gate.stream.older", Tick.class);
        Stream registered = stream.register();
        assertThat(probe.update("DELETE FROM " + database.schema() + ".migration_log WHERE stream_id = ?",
                registered.id())).isEqualTo(1);
        recordStreamStep(probe, registered.id(), 1, 0, "failure");

        SqlStreamsException older = failure(() -> newClient(database).stream("gate.stream.older", Tick.class).register());
        assertThat(older.code()).isEqualTo(Code.SQL0022);
        assertThat(older.getMessage()).contains("gate.stream.older");
        assertThat(failure(() -> registerProducer(stream)).code()).isEqualTo(Code.SQL0022);

        // recording the step again lets it through
        recordStreamStep(probe, registered.id(), 1, 0, "success");
        assertThat(stream.register()).isEqualTo(registered);
        registerProducer(stream);
    }

    // ------------------------------------------------------------------------------------------------------------
    // system scope (its own schema: the gate would refuse every other test of the class)

    @Test
    void aSystemStepNeedingANewerBuildRefusesNewClients(TestDatabase database) throws SQLException {
        String schema = database.extraSchema("sys");
        SchemaProbe probe = new SchemaProbe(database, schema);
        newClientOn(database, schema).stream("gate.system.before", Tick.class).register();
        recordSystemStep(probe, 2, 2);
        long streams = probe.rows("stream_config");

        EngineClient fresh = newClientOn(database, schema);
        SqlStreamsException existing = failure(() -> fresh.stream("gate.system.before", Tick.class).register());
        assertThat(existing.code()).isEqualTo(Code.SQL0023);
        assertThat(existing.getMessage()).startsWith("SQL0023 ").contains(schema);
        SqlStreamsException brandNew = failure(() -> newClientOn(database, schema).stream("gate.system.new", Tick.class)
                .register());
        assertThat(brandNew.code()).isEqualTo(Code.SQL0023);
        assertThat(failure(() -> registerProducer(newClientOn(database, schema).stream("gate.system.before", Tick.class)))
                .code()).isEqualTo(Code.SQL0023);
        assertThat(probe.rows("stream_config")).as("no stream was created past the gate").isEqualTo(streams);
        assertThat(probe.rows("system_config")).isEqualTo(1);
    }

    @Test
    void anAdditiveSystemStepDoesNotGate(TestDatabase database) throws SQLException {
        String schema = database.extraSchema("sysadd");
        SchemaProbe probe = new SchemaProbe(database, schema);
        newClientOn(database, schema).stream("gate.system.additive", Tick.class).register();
        recordSystemStep(probe, 2, 1);

        EngineClient fresh = newClientOn(database, schema);
        fresh.stream("gate.system.additive", Tick.class).register();
        fresh.stream("gate.system.additive.more", Tick.class).register();
        registerProducer(fresh.stream("gate.system.additive", Tick.class));
        assertThat(probe.rows("system_config")).isEqualTo(1);
        assertThat(probe.rows("migration_log", "system_id IS NOT NULL")).isEqualTo(2);
    }
}
