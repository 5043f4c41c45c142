package io.sqlstreams.jakarta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.DestroyOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.Start;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.jakarta.beans.BrokenInjections;
import io.sqlstreams.jakarta.beans.BrokenObservers;
import io.sqlstreams.jakarta.beans.Checkout;
import io.sqlstreams.jakarta.beans.Payment;
import io.sqlstreams.jakarta.beans.UntypedInjections;
import io.sqlstreams.testing.AnnouncementListener;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

/**
 * The injected {@code @StreamName} producer on a real PostgreSQL: outside a transaction it commits on its own;
 * inside one its message commits or rolls back with the transaction; bad injection points fail the deployment.
 */
@PostgresTest
class StreamProducerTest {
    private TestDatabase database;
    private ConsumerHandle<Payment> audit;

    @BeforeEach
    void registerStream(TestDatabase database) {
        this.database = database;
        EngineClient client = EngineFixtures.client(database, new RecordingLogger());
        StreamHandle<Payment> stream = client.stream("payments.requested", Payment.class);
        stream.register();
        audit = stream.consumer("audit");
        audit.get().ifPresent(group -> audit.destroy(DestroyOptions.forced()));
        audit.register(ConsumerConfig.builder().start(Start.BEGINNING).build());
    }

    @Test
    void outsideATransactionTheMessageCommitsOnItsOwn() throws Exception {
        long before = head();
        try (CdiContainer container = CdiContainer.start(database, Map.of(), Checkout.class)) {
            Checkout checkout = container.select(Checkout.class);
            long id = checkout.pay("order-1").id();

            assertThat(id).isGreaterThan(before);
            assertThat(head()).isEqualTo(id);
            assertThat(checkout.stream().name()).isEqualTo("payments.requested");
        }
    }

    @Test
    void insideATransactionTheMessageCommitsAndRollsBackWithIt() throws Exception {
        try (CdiContainer container = CdiContainer.start(database, Map.of(), Checkout.class)) {
            Checkout checkout = container.select(Checkout.class);
            long before = head();

            SimulatedTransactions.begin(database.dataSource());
            checkout.pay("order-rolled-back");
            SimulatedTransactions.rollback();
            assertThat(head()).as("the rolled-back message is gone").isEqualTo(before);

            SimulatedTransactions.begin(database.dataSource());
            long id = checkout.pay("order-committed").id();
            assertThat(head()).as("not visible before the transaction commits").isEqualTo(before);
            SimulatedTransactions.commit();
            assertThat(head()).isEqualTo(id);
        }
    }

    /** In an installation of its own, so that no other test's announcements can arrive meanwhile. */
    @Test
    void aCommittedTransactionAnnouncesItsMessagesARolledBackOneDoesNot() throws Exception {
        String schema = database.extraSchema("announced");
        long ownStreamId;
        try (EngineClient admin = EngineClient.create(database.dataSource(), ClientConfig.builder().schema(schema)
                .build(), EngineEnvironment.standalone())) {
            ownStreamId = admin.stream("payments.requested", Payment.class).register().id();
        }
        try (CdiContainer container = CdiContainer.start(database, Map.of("sqlstreams.schema", schema),
                Checkout.class);
             AnnouncementListener announcements = new AnnouncementListener(database, schema)) {
            Checkout checkout = container.select(Checkout.class);

            SimulatedTransactions.begin(database.dataSource());
            checkout.pay("order-rolled-back");
            SimulatedTransactions.rollback();
            assertThat(announcements.receive(500)).as("after the rollback").isEmpty();

            SimulatedTransactions.begin(database.dataSource());
            checkout.pay("order-committed");
            assertThat(announcements.receive(500)).as("before the commit").isEmpty();
            SimulatedTransactions.commit();
            List<String> received = new ArrayList<>();
            await().atMost(Duration.ofSeconds(10)).until(() -> received.addAll(announcements.receive(200)));
            assertThat(received).containsExactly(schema + ":" + ownStreamId);
        }
    }

    @Test
    void badInjectionPointsFailTheDeploymentWithTheirCodes() {
        assertThatThrownBy(() -> CdiContainer.start(database, Map.of(), BrokenInjections.class).close())
                .hasMessageContaining("SQL0109")
                .hasMessageContaining("Payments Requested!")
                .hasMessageContaining("(at " + BrokenInjections.class.getName() + ".badName)")
                .hasMessageContaining("SQL0134 payload " + BrokenObservers.Unversioned.class.getName()
                        + " of stream \"audit\" injected at " + BrokenInjections.class.getName()
                        + ".unversioned has no @SchemaVersion");
    }

    @Test
    void injectionPointsThatNameNoPayloadClassFailTheDeploymentWithSQL0135() {
        String bean = UntypedInjections.class.getName();
        assertThatThrownBy(() -> CdiContainer.start(database, Map.of(), UntypedInjections.class).close())
                .hasMessageContaining("SQL0135 " + bean + ".raw injects " + Producer.class.getName()
                        + " of stream \"audit\"; name the payload class: Producer<Payload> or StreamHandle<Payload>")
                .hasMessageContaining("SQL0135 " + bean + ".wildcard injects " + StreamHandle.class.getName()
                        + "<?> of stream \"audit\"");
    }

    private long head() {
        return audit.inspect().head();
    }
}
