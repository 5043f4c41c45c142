package io.sqlstreams.engine.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.SQLException;
import java.time.Duration;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.sqlstreams.Code;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.JanitorConfig;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.VacuumConfig;
import io.sqlstreams.testing.PostgresTest;

/** A stream's worker documents read back from their stored rows into the settings they were declared with. */
@PostgresTest
class StreamWorkersTest extends StreamTestBase {
    @SchemaVersion(1)
    public record Tick(int n) {
    }

    private String stored(long streamId, String worker) throws SQLException {
        return probe.text("SELECT metadata::text FROM " + probe.schema() + ".worker_config WHERE stream_id = ?"
                + " AND name = ?", streamId, worker);
    }

    @Test
    void everyDeclaredSettingReadsBackEqualFromTheStoredRow() throws SQLException {
        JanitorConfig janitor = new JanitorConfig(Duration.ofMillis(1500), 500, Duration.ofMinutes(2),
                Duration.ofHours(1));
        VacuumConfig vacuum = new VacuumConfig(Duration.ofSeconds(90), Duration.ofMillis(500));
        long id = client.stream("workers.full", Tick.class).register(StreamConfig.builder().janitor(janitor)
                .vacuum(vacuum).build()).id();

        assertThat(StreamWorkers.janitorConfig(stored(id, StreamWorkers.JANITOR))).isEqualTo(janitor);
        assertThat(StreamWorkers.vacuumConfig(stored(id, StreamWorkers.VACUUM))).isEqualTo(vacuum);
    }

    @Test
    void undeclaredSettingsReadBackAsDefaults() throws SQLException {
        long id = client.stream("workers.defaults", Tick.class).register(StreamConfig.defaults()).id();

        assertThat(stored(id, StreamWorkers.JANITOR)).isEqualTo("{}");
        assertThat(StreamWorkers.janitorConfig(stored(id, StreamWorkers.JANITOR))).isEqualTo(JanitorConfig.defaults());
        assertThat(StreamWorkers.vacuumConfig(stored(id, StreamWorkers.VACUUM))).isEqualTo(VacuumConfig.defaults());
    }

    @Test
    void aDocumentReadsBackWhatItWasWrittenFromAndIgnoresUnknownKeys() {
        JanitorConfig janitor = new JanitorConfig(Duration.ofNanos(1), Integer.MAX_VALUE, Duration.ofHours(30),
                Duration.ofMillis(1));
        VacuumConfig vacuum = new VacuumConfig(Duration.ofMinutes(7), null);

        assertThat(StreamWorkers.janitorConfig(StreamWorkers.janitorDocument(janitor).toString())).isEqualTo(janitor);
        assertThat(StreamWorkers.vacuumConfig(StreamWorkers.vacuumDocument(vacuum).toString())).isEqualTo(vacuum);
        assertThat(StreamWorkers.vacuumConfig("{\"poll_rate\": \"7m\", \"from_a_newer_version\": [1]}"))
                .isEqualTo(vacuum);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "janitor | {\"poll_rate\": 5}                       | poll_rate",
        "janitor | {\"sweep_batch_size\": \"many\"}         | sweep_batch_size",
        "janitor | {\"sweep_batch_size\": 1.5}              | sweep_batch_size",
        "janitor | {\"cleanup_timeout\": \"soon\"}          | cleanup_timeout",
        "janitor | {\"partial_sweep_grace_period\": true}   | partial_sweep_grace_period",
        "vacuum  | {\"vacuum_timeout\": \"10 seconds\"}     | vacuum_timeout",
        "vacuum  | [1, 2]                                   | metadata",
    })
    void aMalformedStoredValueIsSql0108NamingItsKey(String worker, String document, String key) {
        Function<String, Object> reader = worker.equals("janitor") ? StreamWorkers::janitorConfig
                : StreamWorkers::vacuumConfig;

        InvalidConfigurationException refused = catchThrowableOfType(() -> reader.apply(document),
                InvalidConfigurationException.class);

        assertThat(refused.code()).isEqualTo(Code.SQL0108);
        assertThat(refused.violations()).singleElement()
                .satisfies(violation -> assertThat(violation.property()).isEqualTo(key));
    }
}
