package io.sqlstreams.engine.consume;

import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.junit.jupiter.api.Assumptions;

import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;

/**
 * A consumer group whose fresh claims wait on its stream's fence: a session of the group runs, a transaction that
 * produced into the stream stays open on its own connection (idle in transaction), and a message committed after it
 * makes the session store an observation the open transaction holds back. Closing ends the transaction (rolled back
 * unless {@link #commit() committed}) and stops the session.
 */
public final class HeldFence implements AutoCloseable {
    private static final Duration HELD_WITHIN = Duration.ofSeconds(30);

    private final ConsumerSession session;
    private final Connection holder;
    private final int pid;

    private HeldFence(ConsumerSession session, Connection holder, int pid) {
        this.session = session;
        this.holder = holder;
        this.pid = pid;
    }

    /** Registers {@code stream} and {@code group} when missing and holds the group's fence; returns once it holds. */
    public static HeldFence hold(SqlStreams client, DataSource dataSource, String stream, String group)
            throws SQLException {
        StreamHandle<Numbered> handle = client.stream(stream, Numbered.class);
        handle.register();
        ConsumerHandle<Numbered> consumer = handle.consumer(group);
        ConsumerSession session = consumer.register().start(message -> {
        }, ConsumeFixtures.fastSession().build());
        Connection holder = dataSource.getConnection();
        try (Producer<Numbered> producer = handle.producer().register()) {
            holder.setAutoCommit(false);
            producer.produce(holder, new Numbered(1), ProduceOptions.none());
            producer.produce(new Numbered(2));
            await().atMost(HELD_WITHIN).pollInterval(20, TimeUnit.MILLISECONDS).until(() -> consumer.fence().held());
            return new HeldFence(session, holder, backendPid(holder));
        } catch (SQLException | RuntimeException | Error e) {
            holder.close();
            session.close();
            throw e;
        }
    }

    /** The backend of the open producing transaction. */
    public int pid() {
        return pid;
    }

    /** Ends the open producing transaction, releasing the fence. */
    public void commit() throws SQLException {
        holder.commit();
    }

    @Override
    public void close() throws SQLException {
        try {
            holder.close();
        } finally {
            session.close();
        }
    }

    /** The backend process id of {@code connection}'s session. */
    public static int backendPid(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT pg_backend_pid()")) {
            row.next();
            return row.getInt(1);
        }
    }

    /** Skips the calling test unless the server allows prepared transactions. */
    public static void assumePreparedTransactions(DataSource dataSource) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             Statement statement = connection.createStatement();
             ResultSet setting = statement.executeQuery("SELECT current_setting('max_prepared_transactions')::int")) {
            setting.next();
            Assumptions.assumeTrue(setting.getInt(1) > 0, "the test server's max_prepared_transactions is 0: set it"
                    + " above 0 (a server restart) to run the prepared-transaction cases");
        }
    }
}
