package io.sqlstreams.engine.key;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.Outcome;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.engine.consume.ConsumeFixtures;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;

/**
 * What the {@code OrderedKeyTest}, {@code ExclusiveKeyTest}, {@code CompactionDeliveryTest} and {@code FanOutTest}
 * classes share: keyed payloads, a {@link Rig} per test (a stream of its own, sessions on clients of their own,
 * produce shortcuts and the group tables read back), and a {@link Ledger} of handler runs with the invariants the
 * tests check (per-key overlap, per-key success order, predecessors resolved before a run starts, no run after a
 * success).
 */
final class OrderedKeyKit {
    private static final AtomicInteger NAMES = new AtomicInteger();

    private OrderedKeyKit() {
    }

    /** A payload carrying a number the tests name messages by. */
    interface Numbered {
        long n();
    }

    /** Payload version 1: a number about an entity. */
    @SchemaVersion(1)
    public record Keyed(String key, long n) implements Numbered {
    }

    /** Payload version 2 of the same stream. */
    @SchemaVersion(2)
    public record KeyedV2(String key, long n, String note) implements Numbered {
    }

    /**
     * Session options for these tests: fast polls and margins ({@link ConsumeFixtures#fastSession()}), but a queue
     * margin large enough that a queued message or a chain never trips the start guard on a busy machine.
     */
    static ConsumeOptions.Builder session() {
        return ConsumeFixtures.fastSession().queueMargin(Duration.ofSeconds(5));
    }

    /** A declaration with quick retries ({@link ConsumeFixtures#quickRetries}), {@code maxRetries} of them. */
    static ConsumerConfig.Builder retries(int maxRetries) {
        return ConsumeFixtures.quickRetries(maxRetries, Duration.ofSeconds(5)).toBuilder();
    }

    /**
     * The base of the four test classes: the class's database and a client ({@link EngineTestBase}), and for every
     * test a fresh {@link Rig} on a stream of its own and a fresh {@link Ledger}.
     */
    abstract static class RigTest extends EngineTestBase {
        static final Duration WAIT = Duration.ofSeconds(30);

        final Ledger ledger = new Ledger();
        Rig rig;

        @BeforeEach
        void openRig() {
            rig = new Rig(database, client, getClass().getSimpleName());
        }

        @AfterEach
        void closeRig() {
            rig.close();
        }
    }

    /** Produce options of a keyed message, with {@code policy} requested by the message itself when not null. */
    static ProduceOptions keyed(String key, Concurrency policy) {
        ProduceOptions.Builder options = ProduceOptions.builder().messageKey(key);
        if (policy != null) {
            options.message(MessageOptions.builder().concurrency(policy).build());
        }
        return options.build();
    }

    /** One test's stream, its sessions and its producer; closing it stops every session it started. */
    static final class Rig implements AutoCloseable {
        final TestDatabase database;
        final EngineClient client;
        final StreamHandle<Keyed> stream;
        final Sql sql;
        private final List<ConsumerSession> sessions = new CopyOnWriteArrayList<>();
        private final List<RecordingLogger> sessionLoggers = new CopyOnWriteArrayList<>();
        private Producer<Keyed> producer;

        Rig(TestDatabase database, EngineClient client, String label) {
            this.database = database;
            this.client = client;
            this.sql = new Sql(database);
            this.stream = client.stream(label + "." + NAMES.incrementAndGet(), Keyed.class);
            stream.register();
        }

        /**
         * Registers {@code group} and starts a session of it on a client of its own (another process, as far as
         * the library can tell); returns once it runs.
         */
        ConsumerSession start(String group, ConsumerConfig config, MessageHandler<Keyed> handler,
                              ConsumeOptions options) {
            return start(Keyed.class, group, config, handler, options);
        }

        <T> ConsumerSession start(Class<T> type, String group, ConsumerConfig config, MessageHandler<T> handler,
                                  ConsumeOptions options) {
            return start(type, group, config, handler, options, true);
        }

        /** {@link #start} on a client without wake-up on produce: the session finds messages by polling alone. */
        ConsumerSession startPollingOnly(String group, ConsumerConfig config, MessageHandler<Keyed> handler,
                                         ConsumeOptions options) {
            return start(Keyed.class, group, config, handler, options, false);
        }

        private <T> ConsumerSession start(Class<T> type, String group, ConsumerConfig config,
                                          MessageHandler<T> handler, ConsumeOptions options, boolean wakeup) {
            RecordingLogger logger = new RecordingLogger();
            sessionLoggers.add(logger);
            EngineClient own = EngineClient.create(database.dataSource(), ClientConfig.builder()
                            .schema(database.schema()).allowDestroy(true).logger(logger).disableWakeup(!wakeup).build(),
                    EngineEnvironment.standalone());
            ConsumerSession session = own.stream(stream.name(), type).consumer(group).register(config)
                    .start(handler, options);
            sessions.add(session);
            try {
                assertThat(session.awaitStarted(Duration.ofSeconds(10))).as("session started").isTrue();
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new AssertionError(interrupted);
            }
            return session;
        }

        /** The warning lines the sessions' clients logged that contain {@code text}. */
        List<String> sessionWarnings(String text) {
            return sessionLoggers.stream().flatMap(logger -> logger.lines().stream())
                    .filter(line -> line.level() == System.Logger.Level.WARNING)
                    .map(RecordingLogger.Line::text).filter(line -> line.contains(text)).toList();
        }

        /** Produces one message and returns its id. */
        long produce(String key, long n, ProduceOptions options) {
            return producer().produce(new Keyed(key, n), options).id();
        }

        /** Produces the items one after another, so their ids ascend in list order; returns the ids. */
        List<Long> produceInOrder(List<ProduceItem<Keyed>> items) {
            return items.stream().map(item -> producer().produce(item.message(), item.options()).id()).toList();
        }

        /**
         * Produces the items in one transaction and returns their ids in list order. The ids themselves follow
         * message-key order within the batch (keyless first), not list order.
         */
        List<Long> produceBatch(List<ProduceItem<Keyed>> items) {
            return producer().produceBatch(items).stream().map(ProduceResult::id).toList();
        }

        private Producer<Keyed> producer() {
            if (producer == null) {
                producer = stream.producer().register();
            }
            return producer;
        }

        long streamId() {
            return stream.get().orElseThrow().id();
        }

        long groupId(String group) {
            return stream.consumer(group).get().orElseThrow().id();
        }

        /** The highest id of the stream. */
        long head() throws SQLException {
            return sql.count("SELECT coalesce(max(id), 0) FROM {s}.message_log_" + streamId());
        }

        long committed(String group) {
            return stream.consumer(group).inspect().committed();
        }

        long claimed(String group) {
            return stream.consumer(group).inspect().claimed();
        }

        /** The group's exception rows as message id → "status/attempts/delays". */
        Map<Long, String> exceptions(String group) throws SQLException {
            Map<Long, String> rows = new TreeMap<>();
            for (List<Object> row : sql.rows("SELECT message_id, status || '/' || attempts || '/' || delays FROM {s}"
                    + ".exception_queue_" + streamId() + " WHERE consumer_group_id = ?", groupId(group))) {
                rows.put(((Number) row.get(0)).longValue(), (String) row.get(1));
            }
            return rows;
        }

        /** The delivery-log statuses of one message in the group, in the order they were written. */
        List<String> log(String group, long messageId) throws SQLException {
            return sql.strings("SELECT status FROM {s}.delivery_log_" + streamId()
                    + " WHERE consumer_group_id = ? AND message_id = ? ORDER BY id", groupId(group), messageId);
        }

        /** How many delivery-log rows of the group have {@code status}. */
        long logged(String group, String status) throws SQLException {
            return sql.count("SELECT count(*) FROM {s}.delivery_log_" + streamId()
                    + " WHERE consumer_group_id = ? AND status = ?", groupId(group), status);
        }

        @Override
        public void close() {
            for (ConsumerSession session : sessions) {
                if (session.isRunning()) {
                    session.stop(Duration.ofSeconds(1));
                }
            }
            if (producer != null) {
                producer.close();
            }
        }
    }

    /**
     * Every handler run of a test, in every group. Runs are stamped from one global sequence when they start and
     * when they end, so "started after that one ended" is exact, whatever the clock resolution.
     */
    static final class Ledger {
        enum Result { RUNNING, SUCCESS, FAILURE, DELAY, TERMINAL }

        /** One handler run. */
        static final class Run {
            final String group;
            final long id;
            final String key;
            final long n;
            final int attempt;
            final Concurrency policy;
            final long started;
            volatile long ended = Long.MAX_VALUE;
            volatile Result result = Result.RUNNING;

            Run(String group, long id, String key, long n, int attempt, Concurrency policy, long started) {
                this.group = group;
                this.id = id;
                this.key = key;
                this.n = n;
                this.attempt = attempt;
                this.policy = policy;
                this.started = started;
            }

            boolean overlaps(Run other) {
                return started < other.ended && other.started < ended;
            }

            @Override
            public String toString() {
                return group + ":" + key + "#" + n + "(id " + id + ", attempt " + attempt + ", " + result + ", "
                        + started + ".." + (ended == Long.MAX_VALUE ? "" : ended) + ")";
            }
        }

        /** What a test's handler does with one payload; the ledger records the run around it. */
        @FunctionalInterface
        interface Behaviour<T> {
            void handle(T payload, Run run) throws Exception;
        }

        private final AtomicLong sequence = new AtomicLong();
        private final List<Run> runs = new CopyOnWriteArrayList<>();

        /** A handler recording every run around {@code behaviour}. */
        <T extends Numbered> MessageHandler<T> handler(Behaviour<T> behaviour) {
            return payload -> {
                MessageMeta meta = MessageMeta.current();
                Run run = new Run(meta.group(), meta.messageId(), meta.messageKey(), payload.n(), meta.attempt(),
                        meta.options().concurrency(), sequence.incrementAndGet());
                runs.add(run);
                Result result = Result.FAILURE;
                try {
                    behaviour.handle(payload, run);
                    result = Result.SUCCESS;
                } catch (Outcome.Delay delay) {
                    result = Result.DELAY;
                    throw delay;
                } catch (Outcome.Terminal terminal) {
                    result = Result.TERMINAL;
                    throw terminal;
                } finally {
                    run.result = result;
                    run.ended = sequence.incrementAndGet();
                }
            };
        }

        /** A handler that records and succeeds. */
        <T extends Numbered> MessageHandler<T> succeeding() {
            return handler((payload, run) -> { });
        }

        /** The group's runs, in start order. */
        List<Run> runs(String group) {
            return runs.stream().filter(run -> run.group.equals(group)).sorted(Comparator.comparingLong(r -> r.started))
                    .toList();
        }

        List<Run> runsOf(String group, long id) {
            return runs(group).stream().filter(run -> run.id == id).toList();
        }

        List<Run> runsOfKey(String group, String key) {
            return runs(group).stream().filter(run -> key.equals(run.key)).toList();
        }

        /** The payload numbers the group ran, in start order, one entry per run. */
        List<Long> numbers(String group) {
            return runs(group).stream().map(run -> run.n).toList();
        }

        /** Message ids of the group with a successful run. */
        Set<Long> succeeded(String group) {
            return runs(group).stream().filter(run -> run.result == Result.SUCCESS).map(run -> run.id)
                    .collect(Collectors.toCollection(TreeSet::new));
        }

        /** Message ids of one key of the group, in the order their successful runs ended. */
        List<Long> successOrder(String group, String key) {
            return runsOfKey(group, key).stream().filter(run -> run.result == Result.SUCCESS)
                    .sorted(Comparator.comparingLong(run -> run.ended)).map(run -> run.id).toList();
        }

        /** Pairs of runs of one key of the group that were in flight at the same time. */
        List<String> overlaps(String group, String key) {
            List<Run> ofKey = runsOfKey(group, key);
            List<String> overlapping = new ArrayList<>();
            for (int i = 0; i < ofKey.size(); i++) {
                for (int j = i + 1; j < ofKey.size(); j++) {
                    if (ofKey.get(i).overlaps(ofKey.get(j))) {
                        overlapping.add(ofKey.get(i) + " with " + ofKey.get(j));
                    }
                }
            }
            return overlapping;
        }

        /** Runs of the group that started after a successful run of the same message: duplicates. */
        List<Run> runsAfterSuccess(String group) {
            List<Run> duplicates = new ArrayList<>();
            for (Run run : runs(group)) {
                boolean earlierSuccess = runsOf(group, run.id).stream()
                        .anyMatch(other -> other.result == Result.SUCCESS && other.ended < run.started);
                if (earlierSuccess) {
                    duplicates.add(run);
                }
            }
            return duplicates;
        }

        /**
         * Runs of one key of the group that started before an earlier message of the key was resolved: resolved
         * means its successful run ended, or, for an id of {@code dead}, its last run ended.
         */
        List<String> runsAheadOfPredecessors(String group, String key, Set<Long> dead) {
            List<Run> ofKey = runsOfKey(group, key);
            Map<Long, Long> resolvedAt = new TreeMap<>();
            for (Run run : ofKey) {
                boolean resolving = dead.contains(run.id) || run.result == Result.SUCCESS;
                if (resolving) {
                    resolvedAt.merge(run.id, run.ended, Math::max);
                }
            }
            Set<Long> ids = ofKey.stream().map(run -> run.id).collect(Collectors.toCollection(TreeSet::new));
            List<String> early = new ArrayList<>();
            for (Run run : ofKey) {
                for (long earlier : ids) {
                    if (earlier >= run.id) {
                        break;
                    }
                    long at = resolvedAt.getOrDefault(earlier, Long.MAX_VALUE);
                    if (at > run.started) {
                        early.add(run + " started before message " + earlier + " was resolved");
                    }
                }
            }
            return early;
        }

        /**
         * The ordered-key invariants over every key of the group: no two runs of a key in flight together, no run
         * before its predecessors are resolved, successes in strictly increasing id order, nothing run again after
         * it succeeded, and every id of {@code expected} succeeded.
         */
        void assertOrdered(String group, Set<Long> expected, Set<Long> dead) {
            Set<String> keys = runs(group).stream().map(run -> run.key).collect(Collectors.toCollection(TreeSet::new));
            for (String key : keys) {
                assertThat(overlaps(group, key)).as("overlapping runs of key %s", key).isEmpty();
                assertThat(runsAheadOfPredecessors(group, key, dead)).as("runs of key %s ahead of their predecessors",
                        key).isEmpty();
                List<Long> order = successOrder(group, key);
                assertThat(order).as("successes of key %s", key).isSorted().doesNotHaveDuplicates();
            }
            assertThat(runsAfterSuccess(group)).as("runs after a success").isEmpty();
            assertThat(succeeded(group)).as("succeeded ids (lost messages?)").containsAll(expected);
        }
    }
}
