package io.sqlstreams.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProducerConfig;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineThreads;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

/**
 * An outgoing channel against a real PostgreSQL: each message produced with the options it carries and then
 * acknowledged, one requested at a time; a produce that fails nacks its message and the channel goes on; a message
 * arriving after the channel closed is nacked, never thrown back at the publisher.
 */
@PostgresTest
class OutgoingChannelTest {
    private static final ThreadFactory STOPPING = EngineThreads.daemons("channel-stop-");
    private static final Duration WAIT = Duration.ofSeconds(30);

    @SchemaVersion(1)
    public record Order(int n) {
    }

    private final AtomicLong requested = new AtomicLong();
    private final List<String> settled = new CopyOnWriteArrayList<>();
    private final ExecutorService producing = Executors.newSingleThreadExecutor();
    private EngineClient client;

    @BeforeEach
    void setUp(TestDatabase database) {
        client = EngineClient.standalone(database.dataSource(), ClientConfig.builder().schema(database.schema())
                .logger(new RecordingLogger()).build());
    }

    @AfterEach
    void tearDown() {
        producing.shutdownNow();
        client.close();
    }

    @Test
    void eachMessageIsProducedWithItsOptionsThenAcknowledged() {
        StreamHandle<Order> stream = client.stream("orders.outgoing", Order.class);
        stream.register();
        try (OutgoingChannel channel = new OutgoingChannel("placed", client, "orders.outgoing",
                ProducerConfig.defaults(), producing)) {
            channel.onSubscribe(upstream());
            assertThat(requested).as("one at a time").hasValue(1);

            channel.onNext(OutgoingMessage.of(new Order(1), ProduceOptions.builder().messageKey("customer-7")
                    .header("tenant", "acme").build(), tracked("order 1")));
            channel.onNext(tracked(new Order(2), "order 2"));

            await().atMost(WAIT).until(() -> settled.size() == 2);
            assertThat(settled).containsExactly("ack order 1", "ack order 2");
            await().atMost(WAIT).until(() -> requested.get() == 3);
        }

        IncomingChannel<Order> reading = new IncomingChannel<>("check", stream.consumer("check")
                .register(ConsumerConfig.defaults()), ConsumeOptions.builder().claimPollRate(Duration.ofMillis(20))
                .build(), STOPPING);
        RecordingSubscriber<Order> read = new RecordingSubscriber<>(Long.MAX_VALUE, IncomingMessage::ack);
        reading.subscribe(read);
        reading.start();
        try {
            await().atMost(WAIT).until(() -> read.received().size() == 2);
        } finally {
            reading.close();
        }
        IncomingMessage<Order> first = read.received().stream().filter(message -> message.getPayload().n() == 1)
                .findFirst().orElseThrow();
        assertThat(first.meta().messageKey()).isEqualTo("customer-7");
        assertThat(first.meta().headers()).containsEntry("tenant", "acme");
        IncomingMessage<Order> second = read.received().stream().filter(message -> message.getPayload().n() == 2)
                .findFirst().orElseThrow();
        assertThat(second.meta().messageKey()).isNull();
    }

    @Test
    void aFailedProduceNacksItsMessageAndTheChannelGoesOn() {
        List<Throwable> causes = new CopyOnWriteArrayList<>();
        try (OutgoingChannel channel = new OutgoingChannel("placed", client, "orders.unregistered",
                ProducerConfig.defaults(), producing)) {
            channel.onSubscribe(upstream());
            channel.onNext(nackedInto(causes));
            await("the next is requested all the same").atMost(WAIT).until(() -> requested.get() == 2);
        }
        assertThat(causes).singleElement().isInstanceOfSatisfying(SqlStreamsException.class,
                failure -> assertThat(failure.code().id()).isEqualTo("SQL0005"));
    }

    @Test
    void aMessageAfterTheChannelClosedIsNackedWithSql0156() {
        List<Throwable> causes = new CopyOnWriteArrayList<>();
        try (OutgoingChannel channel = new OutgoingChannel("placed", client, "orders.outgoing",
                ProducerConfig.defaults(), producing)) {
            channel.onSubscribe(upstream());
            producing.shutdown();
            channel.onNext(nackedInto(causes));
        }
        assertThat(requested).as("the next is requested, to be nacked in turn, not left unanswered").hasValue(2);
        assertThat(causes).singleElement().isInstanceOfSatisfying(SqlStreamsException.class,
                failure -> assertThat(failure.getMessage()).startsWith("SQL0156 outgoing channel placed to stream"
                        + " orders.outgoing is closed"));
    }

    /** Order 1, whose nack causes go to {@code causes}. */
    private static Message<Order> nackedInto(List<Throwable> causes) {
        return Message.of(new Order(1), () -> CompletableFuture.completedFuture(null), cause -> {
            causes.add(cause);
            return CompletableFuture.completedFuture(null);
        });
    }

    private Subscription upstream() {
        return new Subscription() {
            @Override
            public void request(long n) {
                requested.addAndGet(n);
            }

            @Override
            public void cancel() {
                settled.add("cancel");
            }
        };
    }

    private Message<Order> tracked(Order order, String name) {
        return tracked(name).withPayload(order);
    }

    private Message<Void> tracked(String name) {
        return Message.of(null, () -> {
            settled.add("ack " + name);
            return CompletableFuture.completedFuture(null);
        }, cause -> {
            settled.add("nack " + name + ": " + cause);
            return CompletableFuture.completedFuture(null);
        });
    }
}
