package io.sqlstreams.engine.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.Code;
import io.sqlstreams.DestroyOptions;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestPostgres;

/**
 * Issue 45 item 5: {@code system destroy} of more streams than one transaction has locks for, and of one that
 * stops part way. On a PostgreSQL of its own whose lock table is as small as the server allows, so that a few
 * streams are already more than one transaction may lock: max_locks_per_transaction × (max_connections +
 * autovacuum_max_workers + 1 + max_worker_processes + max_wal_senders + max_prepared_transactions) = 10 × 12
 * slots, plus the shared memory the server keeps spare. A stream's family is 36 relations (tables, partition 0,
 * indexes, sequence, TOAST) and the shared tables some 50: one stream fits in one transaction, two already do not.
 */
class InstallationRemovalTest {
    private static final Map<String, String> SMALL_LOCK_TABLE = Map.of("max_locks_per_transaction", "10",
            "max_connections", "10", "max_prepared_transactions", "0", "max_worker_processes", "0",
            "max_wal_senders", "0", "autovacuum_max_workers", "1");
    /** Four times the streams that one transaction can no longer drop together (the test checks that it cannot). */
    private static final int MANY = 8;
    private static final String OUT_OF_SHARED_MEMORY = "53200";
    private static final AtomicInteger SCHEMAS = new AtomicInteger();

    private DataSource server;
    private String schema;
    private RecordingLogger logger;
    private EngineClient client;
    private Sql sql;

    @BeforeEach
    void openClient() {
        server = TestPostgres.dedicated(SMALL_LOCK_TABLE);
        schema = "destroy_" + SCHEMAS.incrementAndGet();
        logger = new RecordingLogger();
        // one attempt per unit of work: a lock the destroy cannot get fails it after the DDL lock timeout (2 s)
        client = EngineClient.create(server, ClientConfig.builder().schema(schema).allowDestroy(true).logger(logger)
                .retry(RetryPolicy.builder().maxRetries(1).build()).build(), EngineEnvironment.standalone());
        sql = new Sql(server, schema);
    }

    @AfterEach
    void closeClient() {
        client.close();
    }

    private List<Stream> register(int count) {
        return IntStream.rangeClosed(1, count)
                .mapToObj(n -> client.stream("destroy.s" + n, Object.class).register()).toList();
    }

    private boolean schemaExists() throws SQLException {
        return sql.bool("SELECT to_regnamespace(?) IS NOT NULL", schema);
    }

    private long tablesOf(Stream stream) throws SQLException {
        return sql.count("SELECT count(*) FROM pg_class WHERE relnamespace = to_regnamespace(?) AND relkind IN"
                + " ('r', 'p') AND relname ~ ?", schema, "_" + stream.id() + "(_[0-9]+)?$");
    }

    /** Drops the whole schema in one transaction, as the destroy used to, and rolls back; the SQLSTATE it met. */
    private String oneTransactionDrop() throws SQLException {
        try (Connection connection = server.getConnection(); Statement drop = connection.createStatement()) {
            connection.setAutoCommit(false);
            try {
                drop.execute("DROP SCHEMA " + schema + " CASCADE");
                return "none";
            } catch (SQLException failure) {
                return failure.getSQLState();
            } finally {
                connection.rollback();
            }
        }
    }

    @Test
    void destroyDropsMoreStreamsThanOneTransactionHasLocksFor() throws SQLException {
        List<Stream> streams = register(MANY);
        assertThat(oneTransactionDrop()).as("the premise: one transaction cannot lock it all")
                .isEqualTo(OUT_OF_SHARED_MEMORY);

        client.system().destroy(DestroyOptions.forced());

        assertThat(schemaExists()).isFalse();
        for (Stream stream : streams) {
            assertThat(tablesOf(stream)).as(stream.name()).isZero();
        }
        assertThat(logger.withCode("SQL0163")).first().asString()
                .contains("schema " + schema + ": dropped 1 stream(s), one per transaction, " + (MANY - 1) + " left");
        assertThat(logger.withCode("SQL0163")).last().asString()
                .contains("destroyed the installation in schema " + schema + ": " + MANY + " stream(s) and the"
                        + " shared tables");
    }

    /**
     * Another session holds a lock on the second stream's log, so the destroy stops there with the lock timeout's
     * coded failure after dropping the first stream. The installation is whole, one stream short, meanwhile; the
     * destroy run again once the lock is gone finishes it.
     */
    @Test
    void aDestroyStoppedPartWayIsReportedAndRunAgainFinishes() throws SQLException {
        List<Stream> streams = register(3);
        Stream first = streams.get(0);
        Stream second = streams.get(1);

        try (Connection holder = server.getConnection(); Statement lock = holder.createStatement()) {
            holder.setAutoCommit(false);
            lock.execute("LOCK TABLE " + schema + ".message_log_" + second.id() + " IN ACCESS SHARE MODE");

            assertThatThrownBy(() -> client.system().destroy(DestroyOptions.forced()))
                    .isInstanceOfSatisfying(SqlStreamsException.class, failure -> {
                        assertThat(failure.code()).isEqualTo(Code.SQL0110);
                        assertThat(failure.isTransient()).isTrue();
                        assertThat(failure.getMessage()).startsWith("SQL0110 destroying the installation in schema "
                                + schema + " stopped part way: 1 stream(s) are dropped, 2 and the shared tables are"
                                + " still there; run the destroy again to finish it.");
                    });
            holder.rollback();
        }

        assertThat(tablesOf(first)).isZero();
        assertThat(tablesOf(second)).isPositive();
        assertThat(client.system().get().streams()).isEqualTo(2);
        assertThat(client.stream(first.name(), Object.class).get()).isEmpty();
        assertThatThrownBy(() -> client.stream(first.name(), Object.class).consumers())
                .isInstanceOfSatisfying(SqlStreamsException.class,
                        gone -> assertThat(gone.code()).isEqualTo(Code.SQL0005));
        assertThat(client.streams()).extracting(Stream::name).containsExactly(second.name(), streams.get(2).name());

        client.system().destroy(DestroyOptions.forced());

        assertThat(schemaExists()).isFalse();
        assertThat(logger.withCode("SQL0163")).last().asString()
                .contains("destroyed the installation in schema " + schema + ": 2 stream(s)");
    }
}
