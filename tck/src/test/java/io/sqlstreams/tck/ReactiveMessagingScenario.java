package io.sqlstreams.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInspection;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.tck.deployment.Payment;
import io.sqlstreams.tck.deployment.reactive.ReactiveCharges;

/**
 * The sqlstreams connector of MicroProfile Reactive Messaging: an {@code @Incoming} method on a channel configured
 * with {@code connector=sqlstreams} receives every message of the stream once, as the group's deliveries, and what it
 * sends through an {@code Emitter} on an outgoing channel arrives on that channel's stream with its message key.
 */
public abstract class ReactiveMessagingScenario extends TckScenario {
    private static final String APPLICATION = "reactive-messaging";
    private static final String SCHEMA = "tck_reactive_messaging";
    private static final String CHANNEL = "mp.messaging.incoming." + ReactiveCharges.CHANNEL + ".";
    private static final String RECEIPTS = "mp.messaging.outgoing." + ReactiveCharges.RECEIPTS + ".";
    private static final int MESSAGES = 100;

    @ArquillianResource
    private Deployer deployer;
    private StreamHandle<Payment> stream;
    private StreamHandle<Payment> receipts;

    @Deployment(name = APPLICATION, managed = false, testable = false)
    public static WebArchive application() {
        return ApplicationArchive.journalling(APPLICATION, ReactiveCharges.class.getPackage(), SCHEMA, Map.of(
                CHANNEL + "connector", "sqlstreams",
                CHANNEL + "stream", Payment.STREAM,
                CHANNEL + "group", ReactiveCharges.GROUP,
                CHANNEL + "payload-type", Payment.class.getName(),
                CHANNEL + "message.timeout", "15s",
                CHANNEL + "claim-poll-rate", "100ms",
                RECEIPTS + "connector", "sqlstreams",
                RECEIPTS + "stream", ReactiveCharges.RECEIPTS_STREAM));
    }

    @BeforeEach
    void registerTheStreamThenDeploy() throws SQLException {
        stream = paymentsWithJournal(SCHEMA);
        receipts = client(SCHEMA).stream(ReactiveCharges.RECEIPTS_STREAM, Payment.class);
        receipts.register();
        deployer.deploy(APPLICATION);
    }

    @AfterEach
    void undeploy() {
        deployer.undeploy(APPLICATION);
    }

    @Test
    void theChannelsGroupIsInTheHealthChecks() throws Exception {
        String key = Payment.STREAM + "/" + ReactiveCharges.GROUP;
        await().atMost(WAIT).untilAsserted(() -> {
            for (String kind : List.of("ready", "live")) {
                HealthEndpoint.Answer answer = health(kind);
                assertThat(answer.status()).as("/health/%s answered %s", kind, answer.body()).isEqualTo(200);
            }
        });
        assertThat(health("ready").data("sqlstreams-ready").getString(key)).isEqualTo("running");
        assertThat(health("live").data("sqlstreams-sessions").getString(key)).isEqualTo("running");
    }

    @Test
    void anIncomingMethodReceivesEveryMessageOnce() throws Exception {
        List<Long> produced = produce(stream, "reactive", MESSAGES);
        long last = produced.get(produced.size() - 1);

        await().atMost(WAIT).untilAsserted(() -> assertThat(stream.consumer(ReactiveCharges.GROUP).inspect()
                .committed()).isGreaterThanOrEqualTo(last));

        assertThat(JournalRows.read(SCHEMA)).extracting(JournalRows.Entry::messageId)
                .as("every message handled once").containsExactlyInAnyOrderElementsOf(produced);
        ConsumerInspection group = stream.consumer(ReactiveCharges.GROUP).inspect();
        assertThat(group.exceptions()).isEmpty();
        assertThat(group.declaredConfig().message().timeout()).as("declared from the channel's keys")
                .isEqualTo(Duration.ofSeconds(15));

        Map<String, String> receiptsByKey = new ConcurrentHashMap<>();
        try (ConsumerSession reading = receipts.consumer("receipt-check").register(ConsumerConfig.defaults())
                .start(receipt -> receiptsByKey.put(MessageMeta.current().messageKey(), receipt.order()),
                        ConsumeOptions.defaults())) {
            await("the emitted receipts on " + ReactiveCharges.RECEIPTS_STREAM).atMost(WAIT)
                    .until(() -> receiptsByKey.size() == MESSAGES);
        }
        assertThat(receiptsByKey).as("one receipt per order, keyed by it").allSatisfy((order, receipt) ->
                assertThat(receipt).isEqualTo("receipt-" + order));
    }
}
