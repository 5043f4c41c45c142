package io.sqlstreams.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.tck.deployment.ChargeCards;
import io.sqlstreams.tck.deployment.Payment;

/**
 * A redeclaration of the group, stored by another instance while the application runs, reaches the running
 * session within its ConfigRefreshInterval: messages handled after that run under the new timeout.
 */
public abstract class ConfigRefreshScenario extends TckScenario {
    private static final String APPLICATION = "config-refresh";
    private static final String SCHEMA = "tck_config_refresh";
    private static final String GROUP_KEY = "sqlstreams.groups.\"" + ChargeCards.GROUP + "\".";
    private static final Duration REFRESH = Duration.ofSeconds(1);
    /** Claiming, handling and journalling one message, on top of the refresh window. */
    private static final Duration DELIVERY_SLACK = Duration.ofSeconds(3);

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = APPLICATION, managed = false, testable = false)
    public static WebArchive application() {
        return ApplicationArchive.of(APPLICATION, ChargeCards.class.getPackage(), Map.of(
                "sqlstreams.schema", SCHEMA,
                GROUP_KEY + "message.timeout", "10s",
                GROUP_KEY + "config-refresh-interval", REFRESH.toMillis() + "ms",
                GROUP_KEY + "claim-poll-rate", "100ms"));
    }

    @Test
    void aRedeclarationReachesTheRunningSessionWithinItsRefreshInterval() throws Exception {
        StreamHandle<Payment> stream = paymentsWithJournal(SCHEMA);
        deployer.deploy(APPLICATION);
        try (Producer<Payment> producer = stream.producer().register()) {
            long before = producer.produce(new Payment("before")).id();
            await().atMost(WAIT).untilAsserted(() -> assertThat(timeoutOf(before)).isEqualTo(Duration.ofSeconds(10)));

            Instant redeclared = Instant.now();
            stream.consumer(ChargeCards.GROUP).register(ConsumerConfig.builder()
                    .message(MessageOptions.builder().timeout(Duration.ofSeconds(20)).build()).build());

            Instant[] seen = new Instant[1];
            await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                long probe = producer.produce(new Payment("probe")).id();
                await().atMost(WAIT).until(() -> timeoutOf(probe) != null);
                assertThat(timeoutOf(probe)).isEqualTo(Duration.ofSeconds(20));
                seen[0] = Instant.now();
            });
            assertThat(Duration.between(redeclared, seen[0])).as("time until the new timeout was in effect")
                    .isLessThanOrEqualTo(REFRESH.plus(DELIVERY_SLACK));
        } finally {
            deployer.undeploy(APPLICATION);
        }
    }

    private static Duration timeoutOf(long messageId) throws Exception {
        return JournalRows.read(SCHEMA).stream().filter(entry -> entry.messageId() == messageId)
                .map(JournalRows.Entry::timeout).findFirst().orElse(null);
    }
}
