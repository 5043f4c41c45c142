package io.sqlstreams.tck;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.Producer;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.tck.deployment.Journal;
import io.sqlstreams.tck.deployment.Payment;

/**
 * What every scenario shares: the server under test and its PostgreSQL as the test JVM reaches them. Scenarios are
 * abstract; each server has a concrete subclass per scenario in its own package, which is where server-specific
 * expectations (thread names, for one) are answered.
 */
public abstract class ServerScenario {
    /** The longest any expectation waits: a deployment's sessions start, messages travel, health follows. */
    public static final Duration WAIT = Duration.ofSeconds(60);

    static {
        ThreadDumps.onAwaitTimeout();
    }

    /** A client of the server's PostgreSQL working in {@code schema}, as an application outside the server. */
    protected static SqlStreams client(String schema) {
        return SqlStreams.create(server().database(), ClientConfig.builder().schema(schema).build());
    }

    /** Runs one statement of set-up SQL on the server's PostgreSQL. */
    protected static void execute(String sql) throws SQLException {
        try (Connection connection = server().database().getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /** Registers the payments stream in {@code schema} and creates the journal its observers write to. */
    protected static StreamHandle<Payment> paymentsWithJournal(String schema) throws SQLException {
        StreamHandle<Payment> stream = client(schema).stream(Payment.STREAM, Payment.class);
        stream.register();
        execute(Journal.createTable(schema));
        return stream;
    }

    /** Produces {@code count} payments for the orders {@code <prefix>-0} and on; their ids in order. */
    protected static List<Long> produce(StreamHandle<Payment> stream, String prefix, int count) {
        List<Long> ids = new ArrayList<>();
        try (Producer<Payment> producer = stream.producer().register()) {
            for (int i = 0; i < count; i++) {
                ids.add(producer.produce(new Payment(prefix + "-" + i)).id());
            }
        }
        return ids;
    }

    protected static HealthEndpoint.Answer health(String kind) throws IOException, InterruptedException {
        return HealthEndpoint.get(server(), kind);
    }

    protected static ServerCoordinates server() {
        return ServerCoordinates.current();
    }
}
