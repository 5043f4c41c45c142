package io.sqlstreams.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.sqlstreams.BatchHandler;
import io.sqlstreams.BatchItem;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.Outcome;
import io.sqlstreams.TransactionalHandler;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;

/**
 * The delivery tests' own record of every handler run, keyed by message id: when it started, which attempt
 * the engine said it was, the {@link MessageMeta} it saw, and how it ended. Checked against the library's
 * tables by the tests, the way the reference's reliability lab checks its ledger: nothing lost, nothing
 * invented, duplicates counted.
 */
final class DeliveryLedger {

    /** How one handler run ended, as the handler itself saw it. */
    enum Result {
        SUCCESS, FAILURE, DELAY, TERMINAL, UNFINISHED
    }

    /** One handler run. {@code result} is {@link Result#UNFINISHED} until the handler returns or throws. */
    record Run(long messageId, long payload, int attempt, long startedNanos, MessageMeta meta, Result result) {
    }

    /** What a test's handler does with one message; the ledger wraps it. */
    @FunctionalInterface
    interface Behaviour {
        void handle(Numbered message, MessageMeta meta) throws Exception;
    }

    /** What a test's transactional handler does with one message, on the connection the library lent it. */
    @FunctionalInterface
    interface TransactionalBehaviour {
        void handle(Numbered message, MessageMeta meta, Connection connection) throws Exception;
    }

    /** What a test's batch handler does with the items of one call, on the connection the library lent it. */
    @FunctionalInterface
    interface BatchBehaviour {
        void handle(List<BatchItem<Numbered>> items, Connection connection) throws Exception;
    }

    /** One call of a batch handler: the deliveries of its items, in the order the handler got them. */
    record BatchCall(List<MessageMeta> metas) {
        List<Long> ids() {
            return metas.stream().map(MessageMeta::messageId).toList();
        }

        int size() {
            return metas.size();
        }

        boolean has(long messageId, int attempt) {
            return metas.stream().anyMatch(meta -> meta.messageId() == messageId && meta.attempt() == attempt);
        }
    }

    private final Map<Long, List<Run>> runs = new ConcurrentHashMap<>();
    private final List<BatchCall> batchCalls = new CopyOnWriteArrayList<>();

    /** A handler that records every run in this ledger around {@code behaviour}. */
    MessageHandler<Numbered> handler(Behaviour behaviour) {
        return message -> run(message, behaviour);
    }

    /** A transactional handler that records every run in this ledger around {@code behaviour}. */
    TransactionalHandler<Numbered> transactional(TransactionalBehaviour behaviour) {
        return (message, connection) -> run(message,
                (payload, meta) -> behaviour.handle(payload, meta, connection));
    }

    /**
     * A batch handler that records every call in this ledger, and every item of it as a run of its message, around
     * {@code behaviour}: an item ends as what it was {@link BatchItem#fail failed} with, else as the call ended.
     */
    BatchHandler<Numbered> batches(BatchBehaviour behaviour) {
        return (items, connection) -> {
            List<RecordedItem> recorded = new ArrayList<>();
            for (BatchItem<Numbered> item : items) {
                MessageMeta meta = item.meta();
                Run started = new Run(meta.messageId(), item.message().n(), meta.attempt(), System.nanoTime(), meta,
                        Result.UNFINISHED);
                runs.computeIfAbsent(meta.messageId(), id -> new CopyOnWriteArrayList<>()).add(started);
                recorded.add(new RecordedItem(item, started));
            }
            batchCalls.add(new BatchCall(items.stream().map(BatchItem::meta).toList()));
            Result callResult = Result.FAILURE;
            try {
                behaviour.handle(List.copyOf(recorded), connection);
                callResult = Result.SUCCESS;
            } finally {
                for (RecordedItem item : recorded) {
                    item.finish(callResult);
                }
            }
        };
    }

    /** A batch item as the handler sees it, remembering what it was failed with. */
    private final class RecordedItem implements BatchItem<Numbered> {
        private final BatchItem<Numbered> item;
        private final Run started;
        private volatile Throwable failure;

        RecordedItem(BatchItem<Numbered> item, Run started) {
            this.item = item;
            this.started = started;
        }

        @Override
        public Numbered message() {
            return item.message();
        }

        @Override
        public MessageMeta meta() {
            return item.meta();
        }

        @Override
        public void fail(Throwable cause) {
            failure = cause;
            item.fail(cause);
        }

        void finish(Result callResult) {
            Result result = failure instanceof Outcome.Delay ? Result.DELAY
                    : failure instanceof Outcome.Terminal ? Result.TERMINAL
                    : failure != null ? Result.FAILURE : callResult;
            List<Run> own = runs.get(started.messageId());
            own.set(own.indexOf(started), new Run(started.messageId(), started.payload(), started.attempt(),
                    started.startedNanos(), started.meta(), result));
        }
    }

    /** Every call of a batch handler made through {@link #batches}, in the order they started. */
    List<BatchCall> batchCalls() {
        return List.copyOf(batchCalls);
    }

    private void run(Numbered message, Behaviour behaviour) throws Exception {
        MessageMeta meta = MessageMeta.current();
        Run started = new Run(meta.messageId(), message.n(), meta.attempt(), System.nanoTime(), meta,
                Result.UNFINISHED);
        List<Run> own = runs.computeIfAbsent(meta.messageId(), id -> new CopyOnWriteArrayList<>());
        own.add(started);
        Result result = Result.FAILURE;
        try {
            behaviour.handle(message, meta);
            result = Result.SUCCESS;
        } catch (Outcome.Delay delay) {
            result = Result.DELAY;
            throw delay;
        } catch (Outcome.Terminal terminal) {
            result = Result.TERMINAL;
            throw terminal;
        } finally {
            own.set(own.indexOf(started), new Run(started.messageId(), started.payload(), started.attempt(),
                    started.startedNanos(), meta, result));
        }
    }

    /** A handler that succeeds at once. */
    MessageHandler<Numbered> succeeding() {
        return handler((message, meta) -> { });
    }

    /** Records a run seen elsewhere (a child JVM's report), with the outcome it reported. */
    void record(long messageId, Result result) {
        runs.computeIfAbsent(messageId, id -> new CopyOnWriteArrayList<>())
                .add(new Run(messageId, 0, 0, System.nanoTime(), null, result));
    }

    List<Run> runsOf(long messageId) {
        return List.copyOf(runs.getOrDefault(messageId, List.of()));
    }

    int runCount(long messageId) {
        return runsOf(messageId).size();
    }

    long count(long messageId, Result result) {
        return runsOf(messageId).stream().filter(run -> run.result() == result).count();
    }

    /** Every message id the handler ran for. */
    Set<Long> handled() {
        return new TreeSet<>(runs.keySet());
    }

    /** Message ids with at least one successful run. */
    Set<Long> succeeded() {
        Set<Long> ids = new TreeSet<>();
        runs.forEach((id, list) -> {
            if (list.stream().anyMatch(run -> run.result() == Result.SUCCESS)) {
                ids.add(id);
            }
        });
        return ids;
    }

    /** Message ids whose handler ran more than once, with their run counts: the duplicates to report. */
    Map<Long, Integer> duplicates() {
        Map<Long, Integer> over = new TreeMap<>();
        runs.forEach((id, list) -> {
            if (list.size() > 1) {
                over.put(id, list.size());
            }
        });
        return over;
    }

    int totalRuns() {
        return runs.values().stream().mapToInt(List::size).sum();
    }

    /** Gaps in milliseconds between the start times of consecutive runs of one message. */
    List<Long> startGapsMillis(long messageId) {
        List<Run> list = runsOf(messageId);
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < list.size(); i++) {
            gaps.add((list.get(i).startedNanos() - list.get(i - 1).startedNanos()) / 1_000_000);
        }
        return gaps;
    }

    /** Each id of {@code expected} ran exactly once and succeeded; nothing else ran. */
    void assertEachSucceededOnce(Collection<Long> expected) {
        assertThat(handled()).as("handled ids (lost or invented messages)").containsExactlyInAnyOrderElementsOf(expected);
        assertThat(duplicates()).as("duplicates (message id -> runs)").isEmpty();
        assertThat(succeeded()).as("succeeded ids").containsExactlyInAnyOrderElementsOf(expected);
    }
}
