package io.sqlstreams.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.StringReader;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.ConsumerInspection;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.tck.deployment.ChargeCards;
import io.sqlstreams.tck.deployment.Payment;
import io.sqlstreams.tck.deployment.slow.SlowChargeCards;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;

/**
 * Each setting lands where it belongs: the group's declaration comes from the application's MicroProfile Config and
 * is stored on the group's row; session options come from the server's configuration (the application sets none
 * of message-concurrency), drive this instance's session and are stored nowhere.
 */
public abstract class ServerOptionsScenario extends TckScenario {
    private static final String APPLICATION = "server-options";
    private static final String SCHEMA = "tck_server_options";
    private static final String GROUP_KEY = "sqlstreams.groups.\"" + ChargeCards.GROUP + "\".";
    private static final int MESSAGES = 32;

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = APPLICATION, managed = false, testable = false)
    public static WebArchive application() {
        return ApplicationArchive.journalling(APPLICATION, SlowChargeCards.class.getPackage(), SCHEMA, Map.of(
                        GROUP_KEY + "message.timeout", "7s",
                        GROUP_KEY + "message.retry.max-retries", "2",
                        GROUP_KEY + "claim-poll-rate", "100ms",
                        GROUP_KEY + "batch-limit", "16"));
    }

    /** The message concurrency the server's configuration gives every session on it. */
    protected abstract int serverMessageConcurrency();

    @Test
    void theDeclarationIsStoredAndTheServersSessionOptionsDriveTheSession() throws Exception {
        StreamHandle<Payment> stream = paymentsWithJournal(SCHEMA);
        ConsumerHandle<Payment> group = stream.consumer(ChargeCards.GROUP);

        deployer.deploy(APPLICATION);
        try {
            ConsumerInspection inspection = group.inspect();
            assertThat(inspection.declaredConfig().message().timeout()).isEqualTo(Duration.ofSeconds(7));
            assertThat(inspection.declaredConfig().message().retry().maxRetries()).isEqualTo(2);
            assertThat(documentOf(inspection).keySet()).as("stored declaration %s", inspection.declared())
                    .containsExactly("message");

            produce(stream, "concurrent", MESSAGES);
            await().atMost(WAIT).untilAsserted(() -> assertThat(JournalRows.read(SCHEMA)).hasSize(MESSAGES));
        } finally {
            deployer.undeploy(APPLICATION);
        }

        List<JournalRows.Entry> journal = JournalRows.read(SCHEMA);
        assertThat(journal).allSatisfy(entry -> assertThat(entry.timeout()).isEqualTo(Duration.ofSeconds(7)));
        assertThat(mostAtOnce(journal)).as("handlers running at once, %d messages of %d ms each", MESSAGES,
                SlowChargeCards.WORK_MILLIS).isEqualTo(serverMessageConcurrency());
    }

    private static JsonObject documentOf(ConsumerInspection inspection) {
        try (JsonReader reader = Json.createReader(new StringReader(inspection.declared()))) {
            return reader.readObject();
        }
    }

    /** The largest number of journalled calls whose run times overlap. */
    private static int mostAtOnce(List<JournalRows.Entry> journal) {
        int most = 0;
        for (JournalRows.Entry call : journal) {
            int running = (int) journal.stream().filter(other -> !other.startedAt().isAfter(call.startedAt())
                    && other.ranAt().isAfter(call.startedAt())).count();
            most = Math.max(most, running);
        }
        return most;
    }
}
