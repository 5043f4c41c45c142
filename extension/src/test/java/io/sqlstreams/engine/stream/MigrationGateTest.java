package io.sqlstreams.engine.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.schema.DdlScope;
import io.sqlstreams.testing.PostgresTest;

/**
 * The DDL version gate (digest §8.3) as {@code SchemaMigrator} implements it for this build (system scope version
 * 2, stream scope version 2): a newest successful migration_log step whose min_compatible_version is above the
 * scope's build version refuses the stream or the installation with SQL0023; a stream without any successful step
 * is older than the build (SQL0022); failed steps and additive steps do not gate. migration_log is tampered with
 * directly.
 */
@PostgresTest
class MigrationGateTest extends StreamTestBase {
    @SchemaVersion(1)
    public record Tick(long n) {
    }

    private static void recordStreamStep(SchemaProbe probe, long streamId, int version, int minCompatible,
                                         String status) throws SQLException {
        probe.update("INSERT INTO {s}.migration_log (stream_id, version, min_compatible_version,"
                + " status, error) VALUES (?, ?, ?, ?, ?)", streamId, version, minCompatible, status,
                status.equals("failure") ? "simulated" : null);
    }

    /**
     * A probe on a new extra schema of the class ({@code suffix}), installed by registering {@code streamName}, where
     * a successful system step to {@code version} has been recorded.
     */
    private SchemaProbe installedWithSystemStep(String suffix, String streamName, int version, int minCompatible)
            throws SQLException {
        SchemaProbe probe = new SchemaProbe(database, database.extraSchema(suffix));
        clientOn(probe.schema(), true).stream(streamName, Tick.class).register();
        probe.update("INSERT INTO {s}.migration_log (system_id, version, min_compatible_version, status)"
                + " SELECT id, ?, ?, 'success' FROM {s}.system_config", version, minCompatible);
        return probe;
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
    void aStreamStepNeedingANewerBuildRefusesRegisterAndProducers() throws SQLException {
        StreamHandle<Tick> stream = client.stream("gate.stream.newer", Tick.class);
        Stream registered = stream.register();
        registerProducer(stream);
        recordStreamStep(probe, registered.id(), 3, 3, "success");
        List<List<String>> rowBefore = probe.table("SELECT * FROM " + database.schema() + ".stream_config WHERE id = ?",
                registered.id());
        long logsBefore = probe.rowCount("stream_config_log", "stream_id = ?", registered.id());

        EngineClient fresh = newClient();
        StreamHandle<Tick> viaFresh = fresh.stream("gate.stream.newer", Tick.class);
        SqlStreamsException register = failure(() -> viaFresh.register());
        assertThat(register.code()).isEqualTo(Code.SQL0023);
        assertThat(register.isTransient()).isFalse();
        assertThat(register.getMessage()).startsWith("SQL0023 ").contains("gate.stream.newer").contains("3");
        assertThat(failure(() -> registerProducer(viaFresh)).code()).isEqualTo(Code.SQL0023);
        // the stream check is not cached: the client that registered the stream is refused too
        assertThat(failure(() -> stream.register()).code()).isEqualTo(Code.SQL0023);
        assertThat(failure(() -> registerProducer(stream)).code()).isEqualTo(Code.SQL0023);

        // a refused declaration changes nothing, even a differing one
        assertThat(failure(() -> viaFresh.register(StreamConfig.builder().retentionTtl(Duration.ofHours(1)).build()))
                .code()).isEqualTo(Code.SQL0023);
        assertThat(probe.table("SELECT * FROM " + database.schema() + ".stream_config WHERE id = ?", registered.id()))
                .isEqualTo(rowBefore);
        assertThat(probe.rowCount("stream_config_log", "stream_id = ?", registered.id())).isEqualTo(logsBefore);

        // other streams of the installation are unaffected
        StreamHandle<Tick> other = fresh.stream("gate.stream.unaffected", Tick.class);
        other.register();
        registerProducer(other);
        // and reading the gated stream still works
        assertThat(viaFresh.get()).isPresent();
    }

    @Test
    void additiveAndFailedStreamStepsDoNotGate() throws SQLException {

        Stream additive = client.stream("gate.stream.additive", Tick.class).register();
        recordStreamStep(probe, additive.id(), 3, 0, "success");
        Stream compatible = client.stream("gate.stream.compatible", Tick.class).register();
        recordStreamStep(probe, compatible.id(), 3, 2, "success");
        Stream failed = client.stream("gate.stream.failed", Tick.class).register();
        recordStreamStep(probe, failed.id(), 3, 3, "failure");

        EngineClient fresh = newClient();
        for (String name : List.of("gate.stream.additive", "gate.stream.compatible", "gate.stream.failed")) {
            StreamHandle<Tick> stream = fresh.stream(name, Tick.class);
            assertThat(stream.register().name()).isEqualTo(name);
            registerProducer(stream);
        }
    }

    @Test
    void aStreamWithoutASuccessfulStepIsOlderThanTheBuild() throws SQLException {
        StreamHandle<Tick> stream = client.stream("gate.stream.older", Tick.class);
        Stream registered = stream.register();
        assertThat(probe.update("DELETE FROM " + database.schema() + ".migration_log WHERE stream_id = ?",
                registered.id())).isEqualTo(1);
        recordStreamStep(probe, registered.id(), 2, 0, "failure");

        SqlStreamsException older = failure(() -> newClient().stream("gate.stream.older", Tick.class).register());
        assertThat(older.code()).isEqualTo(Code.SQL0022);
        assertThat(older.getMessage()).contains("gate.stream.older");
        assertThat(failure(() -> registerProducer(stream)).code()).isEqualTo(Code.SQL0022);

        // recording the step again lets it through
        recordStreamStep(probe, registered.id(), 2, 0, "success");
        assertThat(stream.register()).isEqualTo(registered);
        registerProducer(stream);
    }

    // ------------------------------------------------------------------------------------------------------------
    // system scope (its own schema: the gate would refuse every other test of the class)

    @Test
    void aSystemStepNeedingANewerBuildRefusesNewClients() throws SQLException {
        int newer = DdlScope.SYSTEM.buildVersion() + 1;
        SchemaProbe probe = installedWithSystemStep("sys", "gate.system.before", newer, newer);
        String schema = probe.schema();
        long streams = probe.rowCount("stream_config");

        EngineClient fresh = clientOn(schema, true);
        SqlStreamsException existing = failure(() -> fresh.stream("gate.system.before", Tick.class).register());
        assertThat(existing.code()).isEqualTo(Code.SQL0023);
        assertThat(existing.getMessage()).startsWith("SQL0023 ").contains(schema);
        SqlStreamsException brandNew = failure(() -> clientOn(schema, true).stream("gate.system.new", Tick.class)
                .register());
        assertThat(brandNew.code()).isEqualTo(Code.SQL0023);
        assertThat(failure(() -> registerProducer(clientOn(schema, true).stream("gate.system.before", Tick.class)))
                .code()).isEqualTo(Code.SQL0023);
        assertThat(probe.rowCount("stream_config")).as("no stream was created past the gate").isEqualTo(streams);
        assertThat(probe.rowCount("system_config")).isEqualTo(1);
    }

    @Test
    void anAdditiveSystemStepDoesNotGate() throws SQLException {
        SchemaProbe probe = installedWithSystemStep("sysadd", "gate.system.additive",
                DdlScope.SYSTEM.buildVersion() + 1, 1);

        EngineClient fresh = clientOn(probe.schema(), true);
        fresh.stream("gate.system.additive", Tick.class).register();
        fresh.stream("gate.system.additive.more", Tick.class).register();
        registerProducer(fresh.stream("gate.system.additive", Tick.class));
        assertThat(probe.rowCount("system_config")).isEqualTo(1);
        assertThat(probe.rowCount("migration_log", "system_id IS NOT NULL")).isEqualTo(2);
    }
}
