package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.ConsumeFixtures.produceNumbered;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.sqlstreams.BatchHandler;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.TransactionalHandler;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.EngineThreads;
import io.sqlstreams.engine.HostTransactions;
import io.sqlstreams.engine.HostedClient;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.testing.TestDatabase;

/**
 * One delivery test's world: a fresh stream, one registered group {@code <stream>.g}, the group's tables, and
 * the ids of the numbered messages produced up front (payload n = position, 1-based).
 */
record DeliveryScenario(StreamHandle<Numbered> stream, String group, ConsumerInstance<Numbered> instance,
                        DeliveryTables tables, List<Long> ids) {
    private static final ExecutorService ENLISTED_HANDLERS =
            Executors.newCachedThreadPool(EngineThreads.daemons("enlisted-handler-"));

    static DeliveryScenario create(EngineClient client, TestDatabase database, String name, DeliveryLogMode mode,
                                   ConsumerConfig declaration, int count) {
        StreamHandle<Numbered> stream = client.stream(name, Numbered.class);
        stream.register(StreamConfig.builder().deliveryLogMode(mode).build());
        String group = name + ".g";
        ConsumerInstance<Numbered> instance = stream.consumer(group).register(declaration);
        List<Long> ids = count == 0 ? List.of() : produceNumbered(stream, count).stream().map(ProduceResult::id).toList();
        return new DeliveryScenario(stream, group, instance, DeliveryTables.of(database, stream, group), ids);
    }

    /** The highest id produced up front. */
    long last() {
        return ids.get(ids.size() - 1);
    }

    /** Starts a session of the group in this JVM, adds it to {@code sessions} (closed by the test), and waits until it runs. */
    ConsumerSession start(MessageHandler<Numbered> handler, ConsumeOptions options, List<ConsumerSession> sessions) {
        return startSession(instance, handler, options, sessions);
    }

    /** {@link #start(MessageHandler, ConsumeOptions, List)} with a transactional handler. */
    ConsumerSession start(TransactionalHandler<Numbered> handler, ConsumeOptions options,
                          List<ConsumerSession> sessions) {
        return startSession(instance, handler, options, sessions);
    }

    /** {@link #start(MessageHandler, ConsumeOptions, List)} with a batch handler. */
    ConsumerSession startBatches(BatchHandler<Numbered> handler, ConsumeOptions options,
                                 List<ConsumerSession> sessions) {
        return awaitStarted(instance.startBatches(handler, options), sessions);
    }

    /** {@link #start(MessageHandler, ConsumeOptions, List)} with each message in a transaction of {@code host}. */
    ConsumerSession startEnlisted(MessageHandler<Numbered> handler, HostTransactions host, ConsumeOptions options,
                                  List<ConsumerSession> sessions) {
        return startEnlisted(instance, handler, host, options, sessions);
    }

    static ConsumerSession startEnlisted(ConsumerInstance<Numbered> instance, MessageHandler<Numbered> handler,
                                         HostTransactions host, ConsumeOptions options,
                                         List<ConsumerSession> sessions) {
        HostedClient.HostedConsumer<Numbered> hosted = (HostedClient.HostedConsumer<Numbered>) instance;
        return awaitStarted(hosted.startEnlisted(handler, host, options, ENLISTED_HANDLERS), sessions);
    }

    static ConsumerSession startSession(ConsumerInstance<Numbered> instance, MessageHandler<Numbered> handler,
                                        ConsumeOptions options, List<ConsumerSession> sessions) {
        return awaitStarted(instance.start(handler, options), sessions);
    }

    static ConsumerSession startSession(ConsumerInstance<Numbered> instance, TransactionalHandler<Numbered> handler,
                                        ConsumeOptions options, List<ConsumerSession> sessions) {
        return awaitStarted(instance.start(handler, options), sessions);
    }

    private static ConsumerSession awaitStarted(ConsumerSession session, List<ConsumerSession> sessions) {
        sessions.add(session);
        try {
            assertThat(session.awaitStarted(Duration.ofSeconds(10))).isTrue();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new AssertionError(interrupted);
        }
        return session;
    }
}
