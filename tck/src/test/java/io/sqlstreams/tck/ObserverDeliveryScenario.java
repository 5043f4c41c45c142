package io.sqlstreams.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.SQLException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.ConsumerInspection;
import io.sqlstreams.Producer;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.tck.deployment.ChargeCards;
import io.sqlstreams.tck.deployment.Payment;

/**
 * A deployed application's {@code @ConsumerGroup} observer receives what is produced to its stream: every message
 * exactly once, each on a thread of the server's managed executor, and health reports the group.
 *
 * <p>The tests run as a client of the server (the deployment is not testable): the stream must be registered
 * before the application deploys, because a group cannot start on an unregistered stream, so each test registers
 * it and deploys the application itself. What they check is what a user sees from outside: the rows the observer
 * writes, the group's cursor, and the health endpoints.
 */
public abstract class ObserverDeliveryScenario extends TckScenario {
    private static final String APPLICATION = "observer-delivery";
    private static final String SCHEMA = "tck_observer_delivery";
    private static final String GROUP_KEY = "sqlstreams.groups.\"" + ChargeCards.GROUP + "\".";
    private static final String GROUP_DATA_KEY = Payment.STREAM + "/" + ChargeCards.GROUP;
    private static final int MESSAGES = 40;

    @ArquillianResource
    private Deployer deployer;
    private StreamHandle<Payment> stream;

    @Deployment(name = APPLICATION, managed = false, testable = false)
    public static WebArchive application() {
        return ApplicationArchive.of(APPLICATION, ChargeCards.class.getPackage(), Map.of(
                "sqlstreams.schema", SCHEMA,
                GROUP_KEY + "message.timeout", "10s",
                GROUP_KEY + "message.retry.max-retries", "3",
                GROUP_KEY + "claim-poll-rate", "100ms"));
    }

    /** How the server names the threads its managed executors run tasks on. */
    protected abstract Pattern managedExecutorThread();

    @BeforeEach
    void registerTheStreamThenDeploy() throws SQLException {
        stream = paymentsWithJournal(SCHEMA);
        deployer.deploy(APPLICATION);
    }

    @AfterEach
    void undeploy() {
        deployer.undeploy(APPLICATION);
    }

    @Test
    void theObserverHandlesEveryProducedMessageOnceOnAManagedThread() throws Exception {
        Map<Long, String> produced = new LinkedHashMap<>();
        try (Producer<Payment> producer = stream.producer().register()) {
            for (int i = 0; i < MESSAGES; i++) {
                Payment payment = new Payment("order-" + i);
                produced.put(producer.produce(payment).id(), payment.order());
            }
        }
        long last = Collections.max(produced.keySet());
        ConsumerHandle<Payment> group = stream.consumer(ChargeCards.GROUP);

        await().atMost(WAIT).untilAsserted(() -> assertSettled(group.inspect(), last));

        List<JournalRows.Entry> journal = JournalRows.read(SCHEMA);
        assertThat(journal).extracting(entry -> Map.entry(entry.messageId(), entry.order()))
                .as("every message was handled with its payload, none twice")
                .containsExactlyInAnyOrderElementsOf(produced.entrySet());
        assertThat(journal).allSatisfy(entry -> assertThat(entry.thread()).matches(managedExecutorThread()));
    }

    @Test
    void readinessAndLivenessReportTheRunningGroup() throws Exception {
        await().atMost(WAIT).untilAsserted(() -> {
            for (String kind : List.of("ready", "live")) {
                HealthEndpoint.Answer answer = health(kind);
                assertThat(answer.status()).as("/health/%s answered %s", kind, answer.body()).isEqualTo(200);
            }
        });
        assertThat(health("ready").data("sqlstreams-ready").getString(GROUP_DATA_KEY)).isEqualTo("running");
        assertThat(health("live").data("sqlstreams-sessions").getString(GROUP_DATA_KEY)).isEqualTo("running");
    }

    /** The group committed the last produced message and holds nothing that could run again. */
    private static void assertSettled(ConsumerInspection group, long lastProduced) {
        assertThat(group.committed()).as("committed cursor of %s", group).isGreaterThanOrEqualTo(lastProduced);
        assertThat(group.openLeases()).as("open leases of %s", group).isZero();
        assertThat(group.exceptions()).as("exception rows of %s", group).isEmpty();
    }
}
