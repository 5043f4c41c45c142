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
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.tck.deployment.ChargeCards;
import io.sqlstreams.tck.deployment.Journal;
import io.sqlstreams.tck.deployment.Payment;
import io.sqlstreams.tck.deployment.slow.SlowChargeCards;

/**
 * A server killed while its session holds claimed ranges loses nothing: once the leases of the dead session run
 * out, the restarted server's session reclaims those ranges and runs every message in them, and every message is
 * handled; only the messages of the dead ranges may run twice (at-least-once). The group's lease is kept short
 * (2 s timeout, a queue of one batch with a 4 s margin: a 6.6 s range lease) so that the reclaim comes soon after
 * the restart.
 */
public abstract class CrashRecoveryScenario extends ServerScenario {
    private static final String APPLICATION = "crash-recovery";
    private static final String SCHEMA = "tck_crash_recovery";
    private static final String GROUP_KEY = "sqlstreams.groups.\"" + ChargeCards.GROUP + "\".";
    private static final String BEFORE = "before-the-crash";
    private static final String AFTER = "after-the-restart";
    private static final int MESSAGES = 120;

    /** A server of the kind under test that this scenario controls as a process. */
    protected abstract ForkedServer forkedServer();

    private static WebArchive application(String deployment) {
        return ApplicationArchive.journalling(APPLICATION, SlowChargeCards.class.getPackage(), SCHEMA, Map.of(
                        Journal.deploymentProperty(), deployment,
                        GROUP_KEY + "message.timeout", "2s",
                        GROUP_KEY + "queue-margin", "4s",
                        GROUP_KEY + "record-margin", "500ms",
                        GROUP_KEY + "claim-poll-rate", "100ms",
                        GROUP_KEY + "batch-limit", "8",
                        GROUP_KEY + "queue-size", "8"));
    }

    @Test
    void aKilledServerLosesNothingAndTheRestartedServerReclaimsItsRanges() throws Exception {
        StreamHandle<Payment> stream = paymentsWithJournal(SCHEMA);
        List<Long> produced = produce(stream, "crash", MESSAGES);
        ConsumerHandle<Payment> group = stream.consumer(ChargeCards.GROUP);
        long streamId = stream.get().orElseThrow().id();

        Set<Long> heldByTheDeadSession;
        try (ForkedServer server = forkedServer()) {
            server.start(application(BEFORE));
            await().atMost(WAIT).until(() -> JournalRows.read(SCHEMA).size() >= 16);
            server.kill();
            heldByTheDeadSession = leasedMessages(streamId, produced);
            assertThat(heldByTheDeadSession).as("messages in ranges the killed session held").isNotEmpty();

            server.start(application(AFTER));
            await().atMost(WAIT).untilAsserted(() -> assertThat(handledBy(AFTER)).containsAll(heldByTheDeadSession));
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(group.inspect().committed()).isGreaterThanOrEqualTo(produced.get(MESSAGES - 1));
                assertThat(group.inspect().openLeases()).isZero();
            });
        }

        List<JournalRows.Entry> journal = JournalRows.read(SCHEMA);
        assertThat(journal).extracting(JournalRows.Entry::messageId).as("no message lost")
                .containsAll(produced);
        Map<Long, Long> runs = journal.stream()
                .collect(Collectors.groupingBy(JournalRows.Entry::messageId, Collectors.counting()));
        Set<Long> ranTwice = runs.entrySet().stream().filter(entry -> entry.getValue() > 1).map(Map.Entry::getKey)
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(heldByTheDeadSession).as("only messages of the dead ranges ran twice").containsAll(ranTwice);
        assertThat(journal).as("calls of messages that ran more than twice")
                .filteredOn(entry -> runs.get(entry.messageId()) > 2).isEmpty();
        assertThat(handledBy(BEFORE)).as("the killed server had handled some").isNotEmpty();
    }

    private static Set<Long> handledBy(String deployment) throws SQLException {
        return JournalRows.read(SCHEMA).stream().filter(entry -> entry.deployment().equals(deployment))
                .map(JournalRows.Entry::messageId).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The produced messages in the ranges (low, high] leased right now, live or expired: those not committed. */
    private static Set<Long> leasedMessages(long streamId, List<Long> produced) throws SQLException {
        List<long[]> ranges = new ArrayList<>();
        try (Connection connection = server().database().getConnection();
             Statement statement = connection.createStatement();
             ResultSet leases = statement.executeQuery("SELECT low, high FROM " + SCHEMA + ".claim_lease_"
                     + streamId)) {
            while (leases.next()) {
                ranges.add(new long[] {leases.getLong("low"), leases.getLong("high")});
            }
        }
        return produced.stream().filter(id -> ranges.stream().anyMatch(range -> range[0] < id && id <= range[1]))
                .collect(Collectors.toCollection(TreeSet::new));
    }
}
