package io.sqlstreams.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.Outcome;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.Worker;
import io.sqlstreams.engine.EngineThreads;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

/**
 * A group's deliveries through an incoming channel, against a real PostgreSQL: each published once and settled by
 * its acknowledgement (ack: success; nack: retry, dead letter or delay by its cause), never more published than
 * requested, and a cancelled channel loses nothing.
 */
@PostgresTest
class IncomingChannelTest {
    private static final ThreadFactory STOPPING = EngineThreads.daemons("channel-stop-");
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ConsumeOptions FAST = ConsumeOptions.builder().claimPollRate(Duration.ofMillis(20))
            .messageConcurrency(4).build();
    private static final ConsumerConfig QUICK_RETRIES = ConsumerConfig.builder()
            .exceptionInitialBackoff(Duration.ofMillis(10)).build();

    @SchemaVersion(1)
    public record Order(int n) {
    }

    private EngineClient client;
    private StreamHandle<Order> stream;

    @BeforeEach
    void setUp(TestDatabase database, TestInfo test) {
        client = EngineClient.standalone(database.dataSource(), ClientConfig.builder().schema(database.schema())
                .logger(new RecordingLogger()).build());
        stream = client.stream("orders." + test.getTestMethod().orElseThrow().getName().toLowerCase(Locale.ROOT),
                Order.class);
        stream.register();
    }

    @AfterEach
    void tearDown() {
        client.close();
    }

    @Test
    void everyDeliveryIsPublishedOnceAndItsAckCommitsIt() {
        long last = produce(100);
        IncomingChannel<Order> channel = new IncomingChannel<>("orders", stream.consumer("billing")
                .register(ConsumerConfig.defaults()), FAST, STOPPING);
        RecordingSubscriber<Order> subscriber = new RecordingSubscriber<>(Long.MAX_VALUE, IncomingMessage::ack);
        channel.subscribe(subscriber);
        channel.start();
        runUntilCommitted(channel, last);

        assertThat(subscriber.received()).extracting(message -> message.getPayload().n())
                .containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, 100).boxed().toList());
        assertThat(subscriber.received()).allSatisfy(message -> {
            assertThat(message.unwrap(MessageMeta.class)).isSameAs(message.meta());
            assertThat(message.meta().stream()).isEqualTo(stream.name());
            assertThat(message.meta().group()).isEqualTo("billing");
            assertThat(message.meta().attempt()).isEqualTo(1);
        });
        assertThat(subscriber.overlaps()).as("onNext never overlaps").isZero();
        assertThat(subscriber.error()).isNull();
        assertThat(stream.consumer("billing").inspect().dead()).isZero();
    }

    @Test
    void aNackRetriesDelaysOrDeadLettersAsItsCauseSays() {
        long last = produce(4);
        Map<Integer, List<Integer>> attempts = new ConcurrentHashMap<>();
        IncomingChannel<Order> channel = new IncomingChannel<>("orders", stream.consumer("billing")
                .register(QUICK_RETRIES), FAST, STOPPING);
        channel.subscribe(new RecordingSubscriber<Order>(Long.MAX_VALUE, message -> {
            int n = message.getPayload().n();
            int attempt = message.meta().attempt();
            attempts.merge(n, List.of(attempt), (seen, more) -> concat(seen, more));
            boolean first = attempt == 1 && message.meta().delays() == 0;
            switch (n) {
                case 1 -> {
                    if (first) {
                        message.nack(new IllegalStateException("gateway timeout"));
                    } else {
                        message.ack();
                    }
                }
                case 2 -> message.nack(Outcome.terminal("card declined"));
                case 3 -> {
                    if (first) {
                        message.nack(Outcome.delay(Duration.ofMillis(100)));
                    } else {
                        message.ack();
                    }
                }
                default -> message.ack();
            }
        }));
        channel.start();
        runUntilCommitted(channel, last);

        assertThat(attempts.get(1)).as("retried once, then acked").containsExactly(1, 2);
        assertThat(attempts.get(2)).as("dead at once").containsExactly(1);
        assertThat(attempts.get(3)).as("a delay runs again").hasSize(2);
        assertThat(attempts.get(4)).containsExactly(1);
        assertThat(stream.consumer("billing").inspect().dead()).isEqualTo(1);
    }

    @Test
    void noMoreIsPublishedThanRequested() {
        long last = produce(10);
        IncomingChannel<Order> channel = new IncomingChannel<>("orders", stream.consumer("billing")
                .register(ConsumerConfig.defaults()), FAST, STOPPING);
        RecordingSubscriber<Order> subscriber = new RecordingSubscriber<>(2, IncomingMessage::ack);
        channel.subscribe(subscriber);
        channel.start();
        try {
            await().atMost(WAIT).until(() -> subscriber.received().size() == 2);
            await("the session claimed the rest").atMost(WAIT)
                    .until(() -> stream.consumer("billing").inspect().claimed() >= last);
            assertThat(subscriber.received()).as("the two requested, though the rest wait claimed").hasSize(2);

            subscriber.subscription().request(8);
            await().atMost(WAIT).until(() -> stream.consumer("billing").inspect().committed() >= last);
        } finally {
            channel.close();
        }
        assertThat(subscriber.received()).hasSize(10);
    }

    @Test
    void aCancelledChannelStopsAndItsRestArriveOnTheNextOnceEach() {
        long last = produce(10);
        IncomingChannel<Order> first = new IncomingChannel<>("orders", stream.consumer("billing")
                .register(ConsumerConfig.defaults()), FAST, STOPPING);
        RecordingSubscriber<Order> cancelling = new RecordingSubscriber<>(3, IncomingMessage::ack);
        first.subscribe(cancelling);
        first.start();
        await().atMost(WAIT).until(() -> cancelling.received().size() == 3);
        cancelling.subscription().cancel();
        await("the cancelled channel's session stopped").atMost(WAIT).until(() -> liveInstances() == 0);

        IncomingChannel<Order> second = new IncomingChannel<>("orders", stream.consumer("billing")
                .register(ConsumerConfig.defaults()), FAST, STOPPING);
        RecordingSubscriber<Order> next = new RecordingSubscriber<>(Long.MAX_VALUE, IncomingMessage::ack);
        second.start();
        second.subscribe(next);
        runUntilCommitted(second, last);
        assertThat(cancelling.received()).hasSize(3);
        assertThat(java.util.stream.Stream.concat(cancelling.received().stream(), next.received().stream())
                .map(message -> message.getPayload().n()))
                .as("each message settled once across the two channels")
                .containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, 10).boxed().toList());
        assertThat(stream.consumer("billing").inspect().dead()).isZero();
    }

    @Test
    void theStatusFollowsTheSubscriptionTheStartAndTheSession() {
        produce(3);
        IncomingChannel<Order> channel = new IncomingChannel<>("orders", stream.consumer("billing")
                .register(ConsumerConfig.defaults()), FAST, STOPPING);
        assertThat(channel.status()).isEqualTo(new ChannelStatus(ChannelStatus.Stage.WAITING, null));

        RecordingSubscriber<Order> subscriber = new RecordingSubscriber<>(Long.MAX_VALUE, IncomingMessage::ack);
        channel.subscribe(subscriber);
        assertThat(channel.status()).as("subscribed, not started").isEqualTo(new ChannelStatus(
                ChannelStatus.Stage.WAITING, null));
        assertThat(liveWorkerInstances()).as("no session before the start").isZero();

        channel.start();
        assertThat(channel.status()).isEqualTo(new ChannelStatus(ChannelStatus.Stage.RUNNING, null));
        await().atMost(WAIT).until(() -> subscriber.received().size() == 3);

        channel.close();
        assertThat(channel.status()).isEqualTo(new ChannelStatus(ChannelStatus.Stage.STOPPED, null));
    }

    @Test
    void aSecondSubscriberAndABadRequestAreSignalledAsErrors() {
        IncomingChannel<Order> channel = new IncomingChannel<>("orders", stream.consumer("billing")
                .register(ConsumerConfig.defaults()), FAST, STOPPING);
        RecordingSubscriber<Order> subscriber = new RecordingSubscriber<>(0, IncomingMessage::ack);
        channel.subscribe(subscriber);
        try {
            RecordingSubscriber<Order> another = new RecordingSubscriber<>(1, IncomingMessage::ack);
            channel.subscribe(another);
            assertThat(another.error()).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("channel orders has a subscriber already");

            subscriber.subscription().request(0);
            assertThat(subscriber.error()).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("rule 3.9");
        } finally {
            channel.close();
        }
    }

    @Test
    void aChannelClosedBeforeItsStartNeverStartsASession() {
        produce(3);
        IncomingChannel<Order> channel = new IncomingChannel<>("orders", stream.consumer("billing")
                .register(ConsumerConfig.defaults()), FAST, STOPPING);
        RecordingSubscriber<Order> subscriber = new RecordingSubscriber<>(Long.MAX_VALUE, IncomingMessage::ack);
        channel.subscribe(subscriber);

        channel.close();
        channel.start();

        assertThat(channel.status()).isEqualTo(new ChannelStatus(ChannelStatus.Stage.STOPPED, null));
        assertThat(liveWorkerInstances()).as("no session was started").isZero();
        assertThat(subscriber.received()).isEmpty();
        assertThat(stream.consumer("billing").inspect().claimed()).as("nothing claimed").isZero();
    }

    /** Lets the channel run until the group's committed cursor reaches {@code last}, then stops it. */
    private void runUntilCommitted(IncomingChannel<Order> channel, long last) {
        try {
            await().atMost(WAIT).until(() -> stream.consumer("billing").inspect().committed() >= last);
        } finally {
            channel.close();
        }
    }

    private long liveWorkerInstances() {
        return stream.consumer("billing").workers().stream().mapToLong(Worker::liveInstances).sum();
    }

    private double liveInstances() {
        return stream.consumer("billing").metrics().snapshot().stream()
                .filter(measurement -> measurement.name().equals("sqlstreams.consumer.instances.live"))
                .findFirst().orElseThrow().value();
    }

    private static List<Integer> concat(List<Integer> seen, List<Integer> more) {
        return java.util.stream.Stream.concat(seen.stream(), more.stream()).toList();
    }

    private long produce(int count) {
        try (Producer<Order> producer = stream.producer().register()) {
            return producer.produceBatch(IntStream.rangeClosed(1, count).mapToObj(n -> ProduceItem.of(new Order(n)))
                    .toList()).get(count - 1).id();
        }
    }
}
