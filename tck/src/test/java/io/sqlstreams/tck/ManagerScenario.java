package io.sqlstreams.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

import io.sqlstreams.JanitorConfig;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.SystemConfig;
import io.sqlstreams.tck.deployment.ChargeCards;
import io.sqlstreams.tck.deployment.Journal;
import io.sqlstreams.tck.deployment.Payment;

/**
 * The deployed application's consume session runs the system manager beside it, on the server's managed threads:
 * it claims the {@code manager} worker, runs the stream's janitor, and the janitor drops the partitions whose rows
 * are past the retention and already consumed; readiness reports the manager's state. With
 * {@code sqlstreams.manager.enabled=false} the application runs no manager at all.
 */
public abstract class ManagerScenario extends TckScenario {
    private static final String RETAINING = "manager-retaining";
    private static final String WITHOUT = "manager-disabled";
    private static final String SCHEMA = "tck_manager";
    private static final String SCHEMA_WITHOUT = "tck_manager_off";
    private static final int MESSAGES = 25;

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = RETAINING, managed = false, testable = false)
    public static WebArchive retaining() {
        return ApplicationArchive.of(RETAINING, ChargeCards.class.getPackage(), Map.of("sqlstreams.schema", SCHEMA));
    }

    @Deployment(name = WITHOUT, managed = false, testable = false)
    public static WebArchive withoutManager() {
        return ApplicationArchive.of(WITHOUT, ChargeCards.class.getPackage(),
                Map.of("sqlstreams.schema", SCHEMA_WITHOUT, "sqlstreams.manager.enabled", "false"));
    }

    /**
     * Partitions of 10 ids and an hour's retention, a janitor every half second: 25 messages fill partitions 0
     * and 1 and reach into 2, the active one. Their rows are made two hours old once consumed, never waited for.
     */
    @Test
    void theApplicationsManagerRunsTheJanitorWhichDropsConsumedExpiredPartitions() throws Exception {
        client(SCHEMA).system().register(new SystemConfig(Duration.ofSeconds(1)));
        StreamHandle<Payment> stream = client(SCHEMA).stream(Payment.STREAM, Payment.class);
        Stream registered = stream.register(StreamConfig.builder().partitionSize(10L).retentionTtl(Duration.ofHours(1))
                .janitor(new JanitorConfig(Duration.ofMillis(500), null, null, null)).build());
        execute(Journal.createTable(SCHEMA));
        List<Long> ids = produce(stream, "retained", MESSAGES);

        deployer.deploy(RETAINING);
        try {
            await().atMost(WAIT).untilAsserted(() -> assertThat(journalled(SCHEMA)).as(state(registered))
                    .isEqualTo(MESSAGES));
            await().atMost(WAIT).untilAsserted(() -> assertThat(committed(SCHEMA, registered)).as(state(registered))
                    .isGreaterThanOrEqualTo(ids.get(MESSAGES - 1)));
            execute("UPDATE " + SCHEMA + ".message_log_" + registered.id()
                    + " SET created_at = now() - interval '2 hours' WHERE id < 20");

            await().atMost(WAIT).untilAsserted(() -> assertThat(partitions(SCHEMA, registered))
                    .as(state(registered)).doesNotContain(0L, 1L));
            assertThat(partitionExists(SCHEMA, registered, 2)).as("the active partition stays").isTrue();
            assertThat(liveInstances(SCHEMA, "manager")).isEqualTo(1);
            assertThat(liveJanitors(SCHEMA, registered)).isEqualTo(1);
            HealthEndpoint.Answer ready = health("ready");
            assertThat(ready.data("sqlstreams-ready").getString("manager")).as("readiness: %s", ready.body())
                    .startsWith("HOLDING");
        } finally {
            deployer.undeploy(RETAINING);
        }
        assertThat(liveInstances(SCHEMA, "manager")).as("the undeploy released the manager").isZero();
    }

    @Test
    void anApplicationWithTheManagerDisabledRunsNone() throws Exception {
        StreamHandle<Payment> stream = paymentsWithJournal(SCHEMA_WITHOUT);
        produce(stream, "unmanaged", 3);

        deployer.deploy(WITHOUT);
        try {
            await().atMost(WAIT).until(() -> journalled(SCHEMA_WITHOUT) == 3);
            HealthEndpoint.Answer ready = health("ready");
            assertThat(ready.data("sqlstreams-ready").getString("manager")).as("readiness: %s", ready.body())
                    .isEqualTo("DISABLED");
            assertThat(instanceRows(SCHEMA_WITHOUT, "manager")).isZero();
            assertThat(instanceRows(SCHEMA_WITHOUT, "stream_janitor")).isZero();
        } finally {
            deployer.undeploy(WITHOUT);
        }
    }

    private static long journalled(String schema) throws SQLException {
        return number("SELECT count(*) FROM " + schema + "." + Journal.TABLE);
    }

    private static long committed(String schema, Stream stream) throws SQLException {
        return number("SELECT coalesce(min(committed), 0) FROM " + schema + ".consumer_group_cursor_" + stream.id());
    }

    /** What the installation looks like now, for a wait that runs out. */
    private static String state(Stream stream) throws Exception {
        return "partitions " + partitions(SCHEMA, stream) + ", cursors " + text("SELECT string_agg(format("
                + "'(claimed %s, committed %s)', claimed, committed), ', ') FROM " + SCHEMA + ".consumer_group_cursor_"
                + stream.id())
                + ", live workers " + liveWorkers() + ", transactions open for over a second " + longTransactions()
                + ", readiness " + health("ready").body();
    }

    /** Each live worker instance with its owner and its failure streak: a janitor failing in a row backs off. */
    private static String liveWorkers() throws SQLException {
        return text("SELECT string_agg(format('%s of %s target %s failed %s in a row', w.name, coalesce(s.name,"
                + " 'group ' || w.consumer_group_id, 'the system'), w.target_instances, i.attempts), ', ') FROM "
                + SCHEMA + ".worker_instance i JOIN " + SCHEMA + ".worker_config w ON w.id = i.worker_id LEFT JOIN "
                + SCHEMA + ".stream_config s ON s.id = w.stream_id WHERE i.expires_at > now()");
    }

    /** Transactions that could hold a lock a partition drop waits for. */
    private static String longTransactions() throws SQLException {
        return text("SELECT string_agg(format('%s for %s: %s', state, now() - xact_start, left(query, 120)), '; ')"
                + " FROM pg_stat_activity WHERE xact_start < now() - interval '1 second' AND pid <> pg_backend_pid()");
    }

    private static List<Long> partitions(String schema, Stream stream) throws SQLException {
        List<Long> found = new ArrayList<>();
        try (Connection connection = server().database().getConnection();
             PreparedStatement statement = connection.prepareStatement("SELECT substring(tablename FROM '_([0-9]+)$')"
                     + "::bigint FROM pg_tables WHERE schemaname = ? AND tablename LIKE ? ORDER BY 1")) {
            statement.setString(1, schema);
            statement.setString(2, "message\\_log\\_" + stream.id() + "\\_%");
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    found.add(rows.getLong(1));
                }
            }
        }
        return found;
    }

    private static boolean partitionExists(String schema, Stream stream, int partition) throws SQLException {
        return number("SELECT count(*) FROM pg_tables WHERE schemaname = '" + schema + "' AND tablename = 'message_log_"
                + stream.id() + "_" + partition + "'") == 1;
    }

    private static long liveInstances(String schema, String worker) throws SQLException {
        return number("SELECT count(*) FROM " + schema + ".worker_instance i JOIN " + schema + ".worker_config w"
                + " ON w.id = i.worker_id WHERE w.name = '" + worker + "' AND i.expires_at > now()");
    }

    /** The stream's own janitor (the metrics collector's system stream has one too). */
    private static long liveJanitors(String schema, Stream stream) throws SQLException {
        return number("SELECT count(*) FROM " + schema + ".worker_instance i JOIN " + schema + ".worker_config w"
                + " ON w.id = i.worker_id WHERE w.name = 'stream_janitor' AND w.stream_id = " + stream.id()
                + " AND i.expires_at > now()");
    }

    private static long instanceRows(String schema, String worker) throws SQLException {
        return number("SELECT count(*) FROM " + schema + ".worker_instance_log i JOIN " + schema + ".worker_config w"
                + " ON w.id = i.worker_id WHERE w.name = '" + worker + "'");
    }

    private static String text(String query) throws SQLException {
        try (Connection connection = server().database().getConnection();
             PreparedStatement statement = connection.prepareStatement(query);
             ResultSet row = statement.executeQuery()) {
            row.next();
            return row.getString(1);
        }
    }

    private static long number(String query) throws SQLException {
        try (Connection connection = server().database().getConnection();
             PreparedStatement statement = connection.prepareStatement(query);
             ResultSet row = statement.executeQuery()) {
            row.next();
            return row.getLong(1);
        }
    }
}
