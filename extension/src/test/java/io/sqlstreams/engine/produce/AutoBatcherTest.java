package io.sqlstreams.engine.produce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
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
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
import io.sqlstreams.engine.EngineThreads;

/**
 * The batcher's grouping, flushing and failure handling over a scripted writer: message n is written as id n, and
 * a writer call can be held open until the test releases it, so the queue behind it fills deterministically.
 */
class AutoBatcherTest {
    private static final Duration PATIENCE = Duration.ofSeconds(10);
    private static final ThreadFactory DAEMONS = EngineThreads.daemons("batcher-test-");

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
        assertThat(writer.settled).as("the failed batch's key claimed before the retries alone").hasSize(1);
    }

    /**
     * A batch whose permanent failure came after an attempt of it committed (a lost acknowledgement, then a retry
     * that failed for good) is not written again message by message: its batch key says it is on the log, and each
     * caller is answered as after a lost acknowledgement.
     */
    @Test
    void aBatchThatCommittedBeforeItsPermanentFailureIsNotWrittenAgain() throws Exception {
        writer.failures.put(3, new SqlStreamsException(Code.SQL0097, "the retry failed for good"));
        writer.committedBeforeFailing = true;
        AutoBatcher batcher = batcher(10, 1);
        List<CompletableFuture<ProduceResult>> results = submitBehindABlockedBatch(batcher);

        for (CompletableFuture<ProduceResult> result : results) {
            assertThat(result.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(new ProduceResult(0, true));
        }
        assertThat(writer.batches).as("not retried alone").containsExactly(List.of(1), List.of(2, 3, 4));
        assertThat(writer.settled).hasSize(1);
    }

    /** A coded failure reaches the callers as it is; any other may have come after the commit: SQL0019. */
    @ParameterizedTest
    @MethodSource("failuresOfTheWholeBatch")
    void aFailureNotDueToOneMessageFailsEveryCallerOfTheBatchAndTheWorkerGoesOn(Throwable failure)
            throws Exception {
        writer.failures.put(3, failure);
        AutoBatcher batcher = batcher(10, 1);
        List<CompletableFuture<ProduceResult>> results = submitBehindABlockedBatch(batcher);

        for (CompletableFuture<ProduceResult> result : results) {
            Throwable failed = failureOf(result);
            if (failure instanceof SqlStreamsException) {
                assertThat(failed).isSameAs(failure);
            } else {
                assertThat(codeOf(failed)).isEqualTo(Code.SQL0019);
                assertThat(failed).hasCause(failure).hasMessageContaining("may or may not have been written");
            }
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
    void anInterruptedIdleWorkerEndsAndAFreshOneServesTheNextMessage() throws Exception {
        AutoBatcher batcher = batcher(10, 1);
        assertThat(batcher.submit(message(1)).get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                .isEqualTo(new ProduceResult(1, false));
        Thread first = writer.writers.get(1);

        first.interrupt();
        first.join(PATIENCE.toMillis());

        assertThat(first.isAlive()).as("the interrupted worker ended").isFalse();
        assertThat(batcher.submit(message(2)).get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                .isEqualTo(new ProduceResult(2, false));
        assertThat(List.of(first.getName(), writer.writers.get(2).getName()))
                .containsExactly("sqlstreams-produce-batcher.test-1", "sqlstreams-produce-batcher.test-2");
    }

    /**
     * The only worker is interrupted inside a write (which the scripted writer gives up without a code) while
     * three messages wait, and the factory then refuses threads, as a stopping server's does: the write's caller
     * learns its outcome is unknown, the waiting ones that they were not written, a later submit fails at once,
     * and once threads come again the batcher serves again.
     */
    @Test
    void whenNoThreadCanReplaceAnInterruptedWorkerEveryWaitingAndLaterMessageFailsWithSql0113() throws Exception {
        IllegalStateException stopping = new IllegalStateException("the server is stopping");
        AtomicInteger threadsLeft = new AtomicInteger(1);
        AutoBatcher batcher = batcher(10, 1, task -> {
            if (threadsLeft.getAndDecrement() > 0) {
                return DAEMONS.newThread(task);
            }
            throw stopping;
        });
        Held first = writeAndHold(batcher, 1);
        List<CompletableFuture<ProduceResult>> queued = submit(batcher, 2, 4);

        writer.writers.get(1).interrupt();

        assertThat(codeOf(failureOf(first.result()))).as("the interrupted write").isEqualTo(Code.SQL0019);
        for (CompletableFuture<ProduceResult> result : queued) {
            Throwable failed = failureOf(result);
            assertThat(codeOf(failed)).isEqualTo(Code.SQL0113);
            assertThat(failed).hasCause(stopping).hasMessageContaining("was interrupted")
                    .hasMessageContaining("not written");
        }
        assertThat(writer.batches).as("2, 3 and 4 never reached the writer").containsExactly(List.of(1));
        Throwable later = catchThrowable(() -> batcher.submit(message(5)));
        assertThat(codeOf(later)).isEqualTo(Code.SQL0113);
        assertThat(later).hasCause(stopping);

        threadsLeft.set(1);
        assertThat(batcher.submit(message(6)).get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                .isEqualTo(new ProduceResult(6, false));
    }

    @Test
    void aWorkerInterruptedWhileClosingIsReplacedUntilTheQueueIsDrained() throws Exception {
        AutoBatcher batcher = batcher(2, 1);
        Held first = writeAndHold(batcher, 1);
        List<CompletableFuture<ProduceResult>> queued = submit(batcher, 2, 4);
        Thread closer = closeInBackground(batcher);

        writer.writers.get(1).interrupt();
        closer.join(PATIENCE.toMillis());

        assertThat(closer.isAlive()).as("close returned").isFalse();
        assertThat(codeOf(failureOf(first.result()))).isEqualTo(Code.SQL0019);
        for (int n = 2; n <= 4; n++) {
            assertThat(queued.get(n - 2)).as("message %d", n).isCompletedWithValue(new ProduceResult(n, false));
        }
        assertThat(writer.batches).containsExactly(List.of(1), List.of(2, 3), List.of(4));
        assertThat(writer.writers.get(2)).as("a replacement wrote them").isNotSameAs(writer.writers.get(1))
                .matches(thread -> !thread.isAlive());
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
        return batcher(maxSize, workers, DAEMONS);
    }

    private AutoBatcher batcher(int maxSize, int workers, ThreadFactory threads) {
        AutoBatcher batcher = new AutoBatcher("batcher.test", new BatcherConfig(maxSize, workers, null, null),
                new EngineThreads(threads), writer);
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

    private static Code codeOf(Throwable failure) {
        assertThat(failure).isInstanceOf(SqlStreamsException.class);
        return ((SqlStreamsException) failure).code();
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
    private static final class ScriptedWriter implements AutoBatcher.Writes {
        final List<List<Integer>> batches = new CopyOnWriteArrayList<>();
        /** the batch keys asked about after a permanent failure; whether such a batch had committed after all */
        final List<UUID> settled = new CopyOnWriteArrayList<>();
        volatile boolean committedBeforeFailing;
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
        public boolean claimUnwritten(UUID batchKey) {
            settled.add(batchKey);
            return !committedBeforeFailing;
        }

        @Override
        public List<ProduceResult> write(List<PreparedMessage> messages, UUID batchKey) {
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
