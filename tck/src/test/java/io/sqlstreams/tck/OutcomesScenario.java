package io.sqlstreams.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.Producer;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.tck.deployment.Payment;
import io.sqlstreams.tck.deployment.outcomes.OutcomeCards;

/**
 * What the observer's outcome does to the delivery, in a deployed application: an exception retries after the
 * configured backoff and then succeeds, {@code Outcome.terminal} dead-letters at once, {@code Outcome.delay}
 * runs it again after the delay without counting a failure.
 */
public abstract class OutcomesScenario extends TckScenario {
    private static final String APPLICATION = "outcomes";
    private static final String SCHEMA = "tck_outcomes";
    private static final String GROUP_KEY = "sqlstreams.groups.\"" + OutcomeCards.GROUP + "\".";
    private static final Duration BACKOFF = Duration.ofSeconds(2);

    @ArquillianResource
    private Deployer deployer;
    private StreamHandle<Payment> stream;

    @Deployment(name = APPLICATION, managed = false, testable = false)
    public static WebArchive application() {
        return ApplicationArchive.journalling(APPLICATION, OutcomeCards.class.getPackage(), SCHEMA, Map.of(
                        GROUP_KEY + "message.retry.max-retries", "3",
                        GROUP_KEY + "exception-initial-backoff", BACKOFF.toMillis() + "ms",
                        GROUP_KEY + "claim-poll-rate", "100ms"));
    }

    @BeforeEach
    void deploy() throws SQLException {
        stream = paymentsWithJournal(SCHEMA);
        deployer.deploy(APPLICATION);
    }

    @AfterEach
    void undeploy() {
        deployer.undeploy(APPLICATION);
    }

    @Test
    void eachOutcomeDoesWhatItSays() throws Exception {
        long failOnce;
        long terminal;
        long delay;
        long success;
        try (Producer<Payment> producer = stream.producer().register()) {
            failOnce = producer.produce(new Payment("fail-once-1")).id();
            terminal = producer.produce(new Payment("terminal-1")).id();
            delay = producer.produce(new Payment("delay-1")).id();
            success = producer.produce(new Payment("ok-1")).id();
        }
        ConsumerHandle<Payment> group = stream.consumer(OutcomeCards.GROUP);

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(runsOf(failOnce)).hasSize(2);
            assertThat(runsOf(delay)).hasSize(2);
            assertThat(group.inspect().exceptions()).containsOnlyKeys("dead");
        });
        assertThat(runsOf(success)).hasSize(1);
        assertThat(runsOf(terminal)).as("a terminal outcome is not retried").hasSize(1);
        assertThat(group.inspect().dead()).isEqualTo(1);
        List<JournalRows.Entry> retried = runsOf(failOnce);
        assertThat(Duration.between(retried.get(0).ranAt(), retried.get(1).ranAt()))
                .as("the retry waited for the configured backoff").isGreaterThanOrEqualTo(BACKOFF);
        List<JournalRows.Entry> delayed = runsOf(delay);
        assertThat(Duration.between(delayed.get(0).ranAt(), delayed.get(1).ranAt()))
                .as("the delayed run waited for its delay").isGreaterThanOrEqualTo(OutcomeCards.DELAY);
        await().atMost(WAIT).untilAsserted(() -> assertThat(group.inspect().committed())
                .as("only the dead message is left, and dead rows do not hold the cursor back")
                .isGreaterThanOrEqualTo(success));
    }

    private static List<JournalRows.Entry> runsOf(long messageId) throws SQLException {
        return JournalRows.read(SCHEMA).stream().filter(entry -> entry.messageId() == messageId).toList();
    }
}
