package io.sqlstreams.engine.produce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.sqlstreams.BatcherConfig;
import io.sqlstreams.Code;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.EngineEnvironment;

/**
 * The batcher's grouping, flushing and failure handling over a scripted writer: message n is written as id n, and
 * a writer call can be held open until the test releases it, so the queue behind it fills deterministically.
 */
class AutoBatcherTest {
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private final ScriptedWriter writer = new ScriptedWriter();
    private final List<AutoBatcher> batchers = new ArrayList<>();

    @AfterEach
    void closeBatchers() {
        writer.releaseAll();
        batchers.forEach(AutoBatcher::close);
    }

    @Test
    void aLoneMessageIsWrittenAtOnceWithoutWaitingForCompany() throws Exception {
        AutoBatcher batcher = batcher(100, 1);

        assertThat(batcher.submit(message(1)).get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                .isEqualTo(new ProduceResult(1, false));
        assertThat(writer.batches).containsExactly(List.of(1));
    }

    @Test
    void messagesQueuedWhileABatchCommitsGoTogetherInBatchesOfAtMostMaxSize() throws Exception {
        AutoBatcher batcher = batcher(3, 1);
        Held first = writeAndHold(batcher, 1);
        List<CompletableFuture<ProduceResult>> queued = submit(batcher, 2, 6);

        first.hold().release();
        CompletableFuture<ProduceResult> one = first.result();

        assertThat(one.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(new ProduceResult(1, false));
        for (int n = 2; n <= 6; n++) {
            assertThat(queued.get(n - 2).get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("message %d", n)
                    .isEqualTo(new ProduceResult(n, false));
        }
        assertThat(writer.batches).containsExactly(List.of(1), List.of(2, 3, 4), List.of(5, 6));
    }

    @Test
    void closeWritesEverythingQueuedBeforeItReturnsAndThenRefusesNewMessages() throws Exception {
        AutoBatcher batcher = batcher(2, 1);
        Held first = writeAndHold(batcher, 1);
        List<CompletableFuture<ProduceResult>> submitted = new ArrayList<>(List.of(first.result()));
        submitted.addAll(submit(batcher, 2, 4));

        Thread closer = closeInBackground(batcher);
        first.hold().release();
        closer.join(PATIENCE.toMillis());

        assertThat(closer.isAlive()).as("close returned").isFalse();
        assertThat(submitted).allSatisfy(result -> assertThat(result).isCompleted());
        assertThat(writer.batches).containsExactly(List.of(1), List.of(2, 3), List.of(4));
        assertThatThrownBy(() -> batcher.submit(message(5))).isInstanceOf(IllegalStateException.class)
                .hasMessage("the producer is closed");
    }

    @Test
    void whileABatchCommitsAnotherWorkerStartsOnlyOnceAWholeBatchIsQueued() throws Exception {
        AutoBatcher batcher = batcher(3, 2);
        Held first = writeAndHold(batcher, 1);

        List<CompletableFuture<ProduceResult>> queued = submit(batcher, 2, 4);

        assertThat(queued.get(2).get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("written beside the held batch")
                .isEqualTo(new ProduceResult(4, false));
        assertThat(first.result()).isNotDone();
        assertThat(writer.batches).as("2 waited for 3 and 4 instead of starting a batch of its own")
                .containsExactly(List.of(1), List.of(2, 3, 4));
        first.hold().release();
        assertThat(first.result().get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(new ProduceResult(1, false));
    }

    @Test
    void closeWaitsForEveryConcurrentBatchAndStopsEveryWorker() throws Exception {
        AutoBatcher batcher = batcher(1, 3);
        List<Held> held = IntStream.rangeClosed(1, 3).mapToObj(n -> writeAndHold(batcher, n)).toList();

        Thread closer = closeInBackground(batcher);
        held.forEach(write -> write.hold().release());
        closer.join(PATIENCE.toMillis());

        assertThat(closer.isAlive()).as("close returned").isFalse();
        assertThat(writer.writers.values()).as("three workers wrote at once, and all of them ended")
                .hasSize(3).doesNotHaveDuplicates().noneMatch(Thread::isAlive);
    }

    @Test
    void aPermanentFailureIsRetriedMessageByMessageSoOnlyTheBadMessagesCallerFails() throws Exception {
        SqlStreamsException invalid = new SqlStreamsException(Code.SQL0097, "message 3 cannot be stored");
        writer.failures.put(3, invalid);
        AutoBatcher batcher = batcher(10, 1);
        List<CompletableFuture<ProduceResult>> results = submitBehindABlockedBatch(batcher);

        assertThat(results.get(0).get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(new ProduceResult(2, false));
        assertThat(failureOf(results.get(1))).isSameAs(invalid);
        assertThat(results.get(2).get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(new ProduceResult(4, false));
        assertThat(writer.batches).containsExactly(List.of(1), List.of(2, 3, 4), List.of(2), List.of(3), List.of(4));
    }

    @ParameterizedTest
    @MethodSource("failuresOfTheWholeBatch")
    void aFailureNotDueToOneMessageFailsEveryCallerOfTheBatchAndTheWorkerGoesOn(Throwable failure)
            throws Exception {
        writer.failures.put(3, failure);
        AutoBatcher batcher = batcher(10, 1);
        List<CompletableFuture<ProduceResult>> results = submitBehindABlockedBatch(batcher);

        for (CompletableFuture<ProduceResult> result : results) {
            assertThat(failureOf(result)).isSameAs(failure);
        }
        assertThat(writer.batches).as("not split up").containsExactly(List.of(1), List.of(2, 3, 4));
        assertThat(batcher.submit(message(5)).get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                .isEqualTo(new ProduceResult(5, false));
    }

    static Stream<Throwable> failuresOfTheWholeBatch() {
        return Stream.of(new SqlStreamsException(Code.SQL0110, "PostgreSQL is down"),
                new IllegalStateException("the pool is closed"),
                new OutOfMemoryError("Java heap space"));
    }

    @Test
    void closeWithoutTrafficReturnsAtOnceAndASecondCloseIsHarmless() {
        AutoBatcher batcher = batcher(10, 4);

        batcher.close();
        batcher.close();

        assertThatThrownBy(() -> batcher.submit(message(1))).isInstanceOf(IllegalStateException.class);
        assertThat(writer.batches).isEmpty();
    }

    // ---------------------------------------------------------------------------------------------------

    private AutoBatcher batcher(int maxSize, int workers) {
        AutoBatcher batcher = new AutoBatcher("batcher.test", new BatcherConfig(maxSize, workers, null, null),
                EngineEnvironment.daemonThreads("batcher-test-"), writer);
        batchers.add(batcher);
        return batcher;
    }

    /** Message 1 is written alone and held while 2, 3 and 4 queue behind it; returns the results of 2..4. */
    private List<CompletableFuture<ProduceResult>> submitBehindABlockedBatch(AutoBatcher batcher) {
        Held first = writeAndHold(batcher, 1);
        List<CompletableFuture<ProduceResult>> results = submit(batcher, 2, 4);
        first.hold().release();
        return results;
    }

    /** Submits message n and returns once its writer call has begun and is held open. */
    private Held writeAndHold(AutoBatcher batcher, int n) {
        Hold hold = writer.hold(n);
        CompletableFuture<ProduceResult> result = batcher.submit(message(n));
        hold.awaitEntered();
        return new Held(hold, result);
    }

    private static List<CompletableFuture<ProduceResult>> submit(AutoBatcher batcher, int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(n -> batcher.submit(message(n))).toList();
    }

    /** Closes on a thread of its own and returns once close is waiting for the workers. */
    private static Thread closeInBackground(AutoBatcher batcher) {
        Thread closer = new Thread(batcher::close, "batcher-test-closer");
        closer.start();
        await().atMost(PATIENCE).until(() -> closer.getState() == Thread.State.WAITING);
        return closer;
    }

    private static Throwable failureOf(CompletableFuture<ProduceResult> result) throws Exception {
        try {
            result.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException failed) {
            return failed.getCause();
        }
        throw new AssertionError("the produce succeeded");
    }

    private static PreparedMessage message(int n) {
        return new PreparedMessage(UUID.randomUUID(), 1, String.valueOf(n), null, null, "{}", "{}", null);
    }

    private record Held(Hold hold, CompletableFuture<ProduceResult> result) {
    }

    /** A writer call held open until {@link #release()}. */
    private static final class Hold {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch released = new CountDownLatch(1);

        void awaitEntered() {
            try {
                assertThat(entered.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("the writer was called").isTrue();
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for the writer", interrupted);
            }
        }

        void release() {
            released.countDown();
        }
    }

    /**
     * Writes message n (its routing key) as id n, recording each call's messages and thread; a call holding a held message
     * waits for its release, and a call holding a failing message throws that message's failure.
     */
    private static final class ScriptedWriter implements Function<List<PreparedMessage>, List<ProduceResult>> {
        final List<List<Integer>> batches = new CopyOnWriteArrayList<>();
        final Map<Integer, Throwable> failures = new ConcurrentHashMap<>();
        /** the worker thread that wrote each message */
        final Map<Integer, Thread> writers = new ConcurrentHashMap<>();
        private final Map<Integer, Hold> holds = new ConcurrentHashMap<>();

        Hold hold(int n) {
            Hold hold = new Hold();
            holds.put(n, hold);
            return hold;
        }

        void releaseAll() {
            holds.values().forEach(Hold::release);
        }

        @Override
        public List<ProduceResult> apply(List<PreparedMessage> messages) {
            List<Integer> numbers = messages.stream().map(message -> Integer.valueOf(message.routingKey())).toList();
            batches.add(numbers);
            numbers.forEach(n -> writers.putIfAbsent(n, Thread.currentThread()));
            for (int n : numbers) {
                Hold hold = holds.get(n);
                if (hold != null) {
                    hold.entered.countDown();
                    awaitRelease(hold);
                }
            }
            for (int n : numbers) {
                Throwable failure = failures.get(n);
                if (failure instanceof RuntimeException runtime) {
                    throw runtime;
                }
                if (failure instanceof Error error) {
                    throw error;
                }
            }
            return numbers.stream().map(n -> new ProduceResult(n, false)).toList();
        }

        private static void awaitRelease(Hold hold) {
            try {
                if (!hold.released.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never released a held write");
                }
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(interrupted);
            }
        }
    }
}
