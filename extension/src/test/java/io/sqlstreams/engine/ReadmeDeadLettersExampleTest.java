package io.sqlstreams.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.DeadLetter;
import io.sqlstreams.DeadLetterErrors;
import io.sqlstreams.DeadLetterFilter;
import io.sqlstreams.DeadLetterPage;
import io.sqlstreams.DeadLettersHandle;
import io.sqlstreams.OperatorAction;
import io.sqlstreams.Outcome;
import io.sqlstreams.PageRequest;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.ReadmeExamplesTest.PaymentRequestedV1;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.TestDatabase;

/**
 * The README's dead-letter example, compiled and run on an installation of its own (the examples of
 * {@link ReadmeExamplesTest} use the same stream and group).
 */
@PostgresTest
class ReadmeDeadLettersExampleTest {

    @Test
    void deadLettersRedriveAndPause(TestDatabase database) throws Exception {
        SqlStreams client = SqlStreams.create(database.dataSource(),
                ClientConfig.builder().schema(database.schema()).build());
        StreamHandle<PaymentRequestedV1> payments = client.stream("payments.requested", PaymentRequestedV1.class);
        payments.register(StreamConfig.defaults());
        try (Producer<PaymentRequestedV1> producer = payments.producer().register()) {
            producer.produce(new PaymentRequestedV1("order-17", 1999),
                    ProduceOptions.builder().messageKey("order-17").build());
        }
        try (ConsumerSession session = payments.consumer("charge-cards").register().start(payment -> {
            throw Outcome.terminal("Card declined by issuer");
        }, ConsumeOptions.builder().claimPollRate(Duration.ofMillis(20)).build())) {
            await().atMost(Duration.ofSeconds(20)).until(() -> session.counters().dead() == 1);
        }

        // README: dead letters
        ConsumerHandle<PaymentRequestedV1> charges = client.stream("payments.requested", PaymentRequestedV1.class)
                .consumer("charge-cards");
        DeadLettersHandle dead = charges.deadLetters();

        DeadLetterFilter declined = DeadLetterFilter.all().errorContaining("card declined")
                .deadSince(Instant.parse("2026-12-01T00:00:00Z"));
        long wouldChange = dead.count(declined);                           // the dry run
        DeadLetterPage page = dead.list(declined, PageRequest.first(50));  // newest first, payload as JSON
        List<DeadLetterErrors> causes = dead.errors(DeadLetterFilter.all(), 20);

        OperatorAction redriven = dead.redrive(declined, "alice");  // runs them again, fresh retry budget
        OperatorAction dropped = dead.discard(DeadLetterFilter.all().key("order-17"), "alice");  // resolved, never run

        charges.pause("alice");   // every instance stops claiming within its ConfigRefreshInterval
        charges.resume("alice");  // and drains what waited
        // README: dead letters end

        assertThat(wouldChange).isEqualTo(1);
        assertThat(page.letters()).singleElement().extracting(DeadLetter::messageKey).isEqualTo("order-17");
        assertThat(causes).singleElement().extracting(DeadLetterErrors::count).isEqualTo(1L);
        assertThat(redriven.affected()).isEqualTo(1);
        assertThat(dropped.affected()).as("redriven, so no longer dead").isZero();
        assertThat(charges.actions(10)).extracting(OperatorAction::kind).containsExactly(OperatorAction.Kind.RESUME,
                OperatorAction.Kind.PAUSE, OperatorAction.Kind.DISCARD, OperatorAction.Kind.REDRIVE);
        client.close();
    }

}
