package io.sqlstreams.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.Measurement;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.SystemConfig;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.HostName;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.metrics.collector.SessionCounterWriter;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

/**
 * What a flush records through the real writer on {@code __system.metrics}, flush by flush, and what a failed
 * flush leaves for the next one.
 */
@PostgresTest
class SessionCounterFlusherTest {
    private final RecordingLogger logger = new RecordingLogger();
    private final SessionCounterSet counters = new SessionCounterSet();
    private TestDatabase database;
    private EngineClient reader;
    private SessionCounterFlusher flusher;
    private String group;

    @BeforeEach
    void setUp(TestDatabase database) {
        this.database = database;
        this.reader = EngineFixtures.client(database, logger);
        reader.system().register(SystemConfig.defaults());
        Engine engine = EngineFixtures.engine(database, logger);
        engine.sessionCounters().connect(new SessionCounterWriter(engine));
        group = "billing-" + System.nanoTime();
        flusher = new SessionCounterFlusher(engine, new RegisteredGroup(1, "orders", 2, group, DeliveryLogMode.OFF,
                StreamConfig.DEFAULT_FENCE_WARN_AFTER), 1, "s-1", counters);
    }

    @AfterEach
    void closeReader() {
        reader.close();
    }

    @Test
    void onlyTheCountersThatMovedAreRecordedAndNothingWhenNoneDid() {
        flusher.flush();
        assertThat(history("success")).as("nothing counted yet").isEmpty();

        counters.success.add(3);
        counters.claimed.add(4);
        flusher.flush();
        flusher.flush();
        counters.success.increment();
        flusher.flush();

        assertThat(history("success")).containsExactly(4.0, 3.0);
        assertThat(history("claimed")).as("unchanged, so written once").containsExactly(4.0);
        assertThat(history("dead")).as("never moved, so no series").isEmpty();
    }

    @Test
    void aFailedFlushLogsAWarningAndTheNextOneAddsEverythingStillOwed() throws SQLException {
        counters.dead.add(1);
        flusher.flush();
        String schema = database.schema();
        String log = schema + ".message_log_" + reader.streams().stream()
                .filter(stream -> stream.name().equals("__system.metrics")).findFirst().map(Stream::id).orElseThrow();
        database.execute("CREATE OR REPLACE FUNCTION " + schema + ".refuse_flush() RETURNS trigger LANGUAGE plpgsql"
                + " AS $$ BEGIN RAISE EXCEPTION 'flush refused by the test'; END $$");
        database.execute("CREATE TRIGGER refuse_flush BEFORE INSERT ON " + log + " FOR EACH ROW EXECUTE FUNCTION "
                + schema + ".refuse_flush()");
        try {
            counters.dead.add(2);
            flusher.flush();
        } finally {
            database.execute("DROP TRIGGER refuse_flush ON " + log);
        }

        assertThat(logger.withCode(Code.SQL0146.id())).singleElement().asString()
                .contains("session s-1", "the next flush adds them", "flush refused by the test");
        assertThat(history("dead")).as("the failed flush recorded nothing").containsExactly(1.0);

        counters.dead.increment();
        flusher.flush();

        assertThat(history("dead")).containsExactly(4.0, 1.0);
    }

    private List<Double> history(String counter) {
        return reader.system().metrics().metric("sqlstreams.consumer.session." + counter, Map.of("stream", "orders",
                        "group", group, "version", "1", "session", HostName.current()))
                .history(10).stream().map(Measurement::value).toList();
    }
}
