package io.sqlstreams.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

import io.sqlstreams.StreamHandle;
import io.sqlstreams.tck.deployment.Payment;
import io.sqlstreams.tck.deployment.Journal;
import io.sqlstreams.tck.deployment.keys.KeyedCards;

/**
 * Message keys across two deployed applications running the same group, with retries: under {@code ordered} every
 * key succeeds in id order, and under {@code exclusive} (and ordered) no two runs of a key ever overlap.
 */
public abstract class KeyedDeliveryScenario extends TckScenario {

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = "keyed-ordered-a", managed = false, testable = false)
    public static WebArchive orderedA() {
        return application("keyed-ordered-a", "ordered");
    }

    @Deployment(name = "keyed-ordered-b", managed = false, testable = false)
    public static WebArchive orderedB() {
        return application("keyed-ordered-b", "ordered");
    }

    @Deployment(name = "keyed-exclusive-a", managed = false, testable = false)
    public static WebArchive exclusiveA() {
        return application("keyed-exclusive-a", "exclusive");
    }

    @Deployment(name = "keyed-exclusive-b", managed = false, testable = false)
    public static WebArchive exclusiveB() {
        return application("keyed-exclusive-b", "exclusive");
    }

    private static WebArchive application(String name, String policy) {
        String group = "sqlstreams.groups.\"" + KeyedCards.GROUP + "\".";
        return ApplicationArchive.journalling(name, KeyedCards.class.getPackage(), schema(policy), Map.of(
                        Journal.deploymentProperty(), name,
                        group + "concurrency-override", policy,
                        group + "exception-initial-backoff", "200ms",
                        group + "message.retry.max-retries", "5",
                        group + "batch-limit", "4",
                        group + "claim-poll-rate", "50ms"));
    }

    private static String schema(String policy) {
        return "tck_keyed_" + policy;
    }

    @Test
    void anOrderedKeySucceedsInIdOrderAndNeverOverlapsAcrossTwoDeployments() throws Exception {
        Map<String, List<JournalRows.Entry>> byKey = KeyedRuns.byKey(drain("ordered"));
        KeyedRuns.assertSuccessesInIdOrder(byKey);
        KeyedRuns.assertNoOverlaps(byKey);
    }

    @Test
    void anExclusiveKeyNeverOverlapsAcrossTwoDeployments() throws Exception {
        KeyedRuns.assertNoOverlaps(KeyedRuns.byKey(drain("exclusive")));
    }

    /** Deploys both applications of the policy, produces, and returns every run once all succeeded. */
    private List<JournalRows.Entry> drain(String policy) throws Exception {
        String schema = schema(policy);
        StreamHandle<Payment> stream = paymentsWithJournal(schema);
        List<String> applications = List.of("keyed-" + policy + "-a", "keyed-" + policy + "-b");
        applications.forEach(deployer::deploy);
        try {
            KeyedRuns.produce(stream, n -> "");
            await().atMost(WAIT).until(() -> succeeded(JournalRows.read(schema)).count() == KeyedRuns.MESSAGES);
            List<JournalRows.Entry> runs = JournalRows.read(schema);
            assertThat(succeeded(runs).map(JournalRows.Entry::messageId).distinct().count())
                    .as("every message succeeded exactly once").isEqualTo(KeyedRuns.MESSAGES);
            assertThat(runs.stream().map(JournalRows.Entry::deployment).distinct()).as("both deployments ran messages")
                    .containsExactlyInAnyOrderElementsOf(applications);
            return runs;
        } finally {
            applications.forEach(deployer::undeploy);
        }
    }

    private static Stream<JournalRows.Entry> succeeded(List<JournalRows.Entry> runs) {
        return runs.stream().filter(JournalRows.Entry::succeeded);
    }
}
