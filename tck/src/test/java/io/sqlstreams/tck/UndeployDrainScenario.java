package io.sqlstreams.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.tck.deployment.ChargeCards;
import io.sqlstreams.tck.deployment.Payment;
import io.sqlstreams.tck.deployment.slow.SlowChargeCards;

/**
 * Undeploying while messages are in flight drains them: every handler that started finishes and is recorded, every
 * range is committed or given back at once (none waits out its lease), and the application deployed again handles
 * the rest, so every message is handled exactly once across the undeploy.
 */
public abstract class UndeployDrainScenario extends TckScenario {
    private static final String APPLICATION = "undeploy-drain";
    private static final String SCHEMA = "tck_undeploy_drain";
    private static final String GROUP_KEY = "sqlstreams.groups.\"" + ChargeCards.GROUP + "\".";
    private static final int MESSAGES = 60;

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = APPLICATION, managed = false, testable = false)
    public static WebArchive application() {
        return ApplicationArchive.journalling(APPLICATION, SlowChargeCards.class.getPackage(), SCHEMA, Map.of(
                        GROUP_KEY + "message.timeout", "5s",
                        GROUP_KEY + "claim-poll-rate", "100ms",
                        GROUP_KEY + "batch-limit", "8"));
    }

    @Test
    void undeployingDrainsInFlightMessagesAndLosesNone() throws Exception {
        StreamHandle<Payment> stream = paymentsWithJournal(SCHEMA);
        List<Long> produced = produce(stream, "drained", MESSAGES);
        ConsumerHandle<Payment> group = stream.consumer(ChargeCards.GROUP);

        deployer.deploy(APPLICATION);
        await().atMost(WAIT).until(() -> JournalRows.read(SCHEMA).size() >= 8);
        deployer.undeploy(APPLICATION);

        List<Long> beforeUndeploy = handled();
        long streamId = stream.get().orElseThrow().id();
        assertThat(liveLeases(streamId)).as("every range committed or given back for reclaiming").isZero();
        assertThat(exceptionRows(streamId)).as("no handler failed on the way down: a row is only a handler the"
                + " server interrupted or never started, handed back deferred").allMatch(row -> row.contains(
                " deferred attempts=") && row.endsWith("handed back without counting the attempt"));
        assertThat(beforeUndeploy).as("the undeploy came before the end").hasSizeLessThan(MESSAGES)
                .doesNotHaveDuplicates();

        deployer.deploy(APPLICATION);
        try {
            await().atMost(WAIT).untilAsserted(() -> assertThat(handled()).hasSize(MESSAGES));
            assertThat(handled()).as("every message exactly once across the undeploy")
                    .containsExactlyInAnyOrderElementsOf(produced);
            await().atMost(WAIT).untilAsserted(() -> assertThat(group.inspect().committed())
                    .isGreaterThanOrEqualTo(produced.get(MESSAGES - 1)));
        } finally {
            deployer.undeploy(APPLICATION);
        }
    }

    private static long liveLeases(long streamId) throws SQLException {
        try (Connection connection = server().database().getConnection();
             Statement statement = connection.createStatement();
             ResultSet count = statement.executeQuery("SELECT count(*) FROM " + SCHEMA + ".claim_lease_" + streamId
                     + " WHERE expires_at > now()")) {
            count.next();
            return count.getLong(1);
        }
    }

    /** Each exception row's message id, status, attempts and last error, to say why a handler failed. */
    private static List<String> exceptionRows(long streamId) throws SQLException {
        try (Connection connection = server().database().getConnection();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT message_id, status, attempts, last_error FROM " + SCHEMA
                     + ".exception_queue_" + streamId + " ORDER BY message_id")) {
            List<String> found = new ArrayList<>();
            while (rows.next()) {
                found.add(rows.getLong(1) + " " + rows.getString(2) + " attempts=" + rows.getInt(3) + ": "
                        + rows.getString(4));
            }
            return found;
        }
    }

    private static List<Long> handled() throws SQLException {
        return JournalRows.read(SCHEMA).stream().map(JournalRows.Entry::messageId).toList();
    }
}
