package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.ConsumeFixtures.produceNumbered;
import static io.sqlstreams.engine.consume.ConsumeFixtures.quickRetries;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;

/**
 * Chaining: a transactional handler produces to another stream on the connection it is lent, so the produced message
 * commits or rolls back with the range. The downstream session, in another client, polls once a minute: only the
 * announcement sent after the library's commit brings the messages within the wait below.
 */
@PostgresTest
class TransactionalChainingTest extends DeliveryTestBase {
    private static final ConsumeOptions POLL_ONCE_A_MINUTE = ConsumeOptions.builder()
            .claimPollRate(Duration.ofMinutes(1)).build();
    private static final Duration WITHIN_A_POLL = Duration.ofSeconds(20);

    private EngineClient downstreamClient;

    @AfterEach
    void closeDownstreamClient() {
        sessions.forEach(ConsumerSession::close);
        sessions.clear();
        if (downstreamClient != null) {
            downstreamClient.close();
        }
    }

    @Test
    void aProducedMessageCommitsWithTheRangeAndAFailedRunsProduceRollsBack() throws Exception {
        downstreamClient = EngineFixtures.client(database, new RecordingLogger());
        Map<Long, AtomicInteger> received = new ConcurrentHashMap<>();
        StreamHandle<Numbered> downstream = downstreamClient.stream("chain.out", Numbered.class);
        downstream.register();
        ConsumerSession reader = downstream.consumer("chain.out.g").register(quickRetries(3, Duration.ofSeconds(5)))
                .start(message -> received.computeIfAbsent(message.n(), n -> new AtomicInteger()).incrementAndGet(),
                        POLL_ONCE_A_MINUTE);
        sessions.add(reader);
        assertThat(reader.awaitStarted(WITHIN_A_POLL)).isTrue();

        StreamHandle<Numbered> upstream = client.stream("chain.in", Numbered.class);
        upstream.register();
        List<ProduceResult> produced = produceNumbered(upstream, 20);
        long failing = produced.get(7).id();
        Map<Long, AtomicInteger> runs = new ConcurrentHashMap<>();
        try (Producer<Numbered> forward = client.stream("chain.out", Numbered.class).producer().register()) {
            sessions.add(upstream.consumer("chain.in.g").register(quickRetries(3, Duration.ofSeconds(5)))
                    .start((Numbered message, Connection connection) -> {
                        long id = MessageMeta.current().messageId();
                        forward.produce(connection, message, ProduceOptions.none());
                        int run = runs.computeIfAbsent(id, any -> new AtomicInteger()).incrementAndGet();
                        if (id == failing && run == 1) {
                            throw new IllegalStateException("fails after producing, on its first run");
                        }
                    }, ConsumeOptions.builder().batchLimit(20).queueSize(20).build()));

            await().atMost(WITHIN_A_POLL).until(() -> received.size() == 20);
        }
        assertThat(runs.get(failing)).as("runs of the failing message").hasValue(2);
        assertThat(received).allSatisfy((n, count) -> assertThat(count).as("message %d downstream", n).hasValue(1));
    }
}
