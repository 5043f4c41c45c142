package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

/**
 * Every one-shot command closes the client it read through before the run returns: each run creates its clients
 * with the library, watched for {@link SqlStreams#close()}. Stream {@code orders} with group {@code billing}.
 */
@PostgresTest
class OneShotClientTest {
    @SchemaVersion(1)
    public record Order(String id) {
    }

    private static Map<String, String> environment;

    @BeforeAll
    static void registerAStreamAndAGroup(TestDatabase database) throws SQLException {
        try (EngineClient client = EngineFixtures.client(database, new RecordingLogger())) {
            client.stream("orders", Order.class).register();
            client.stream("orders", Order.class).consumer("billing").register();
        }
        environment = CliRun.environmentFor(database);
    }

    @ParameterizedTest
    @ValueSource(strings = {"stream list", "stream get orders", "stream config get orders", "stream key get orders k",
            "stream janitor status orders", "stream health orders", "consumer list orders",
            "consumer get orders billing", "consumer inspect orders billing", "consumer worker list orders billing",
            "consumer binding list", "schedule list", "system get", "metric list", "alert list"})
    void theRunClosesEveryClientItCreated(String command) {
        List<AtomicBoolean> closed = new CopyOnWriteArrayList<>();
        Installation.ClientFactory watched = (dataSource, config) -> {
            SqlStreams real = SqlStreams.create(dataSource, config);
            AtomicBoolean isClosed = new AtomicBoolean();
            closed.add(isClosed);
            return (SqlStreams) Proxy.newProxyInstance(SqlStreams.class.getClassLoader(),
                    new Class<?>[] {SqlStreams.class}, (proxy, method, arguments) -> {
                        if (method.getName().equals("close")) {
                            isClosed.set(true);
                        }
                        try {
                            return method.invoke(real, arguments);
                        } catch (InvocationTargetException thrown) {
                            throw thrown.getCause();
                        }
                    });
        };

        CliRun run = CliRun.withClients(watched, environment, command.split(" "));

        assertThat(run.exitCode()).as(run.err()).isIn(ExitCodes.OK, ExitCodes.ABSENT);
        assertThat(closed).as("clients created").isNotEmpty();
        assertThat(closed).as("each client closed").allMatch(AtomicBoolean::get);
    }
}
