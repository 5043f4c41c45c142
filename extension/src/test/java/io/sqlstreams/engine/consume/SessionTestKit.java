package io.sqlstreams.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

/**
 * Shared pieces of the {@code Session*Test} classes: a {@link Rig} per test (client, recording logger, a stream
 * of its own, a producer and the sessions it started), a {@link Ledger} of handler runs, and the SQL reads the
 * tests check rows with.
 */
final class SessionTestKit {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final Pattern COUNTER = Pattern.compile("(\\w+_count)=(\\d+)");

    private SessionTestKit() {
    }

    /** A rig on a stream of its own, named after {@code label}. */
    static Rig rig(TestDatabase database, String label) {
        return new Rig(database, label + "." + NAMES.incrementAndGet());
    }

    /** The {@code *_count} fields of an SQL0041 line. */
    static Map<String, Long> counters(String stopLine) {
        Map<String, Long> counters = new TreeMap<>();
        Matcher matcher = COUNTER.matcher(stopLine);
        while (matcher.find()) {
            counters.put(matcher.group(1), Long.parseLong(matcher.group(2)));
        }
        return counters;
    }

    /** One test's client, logger, stream and producer; closing it stops every session it started. */
    static final class Rig implements AutoCloseable {
        final TestDatabase database;
        final RecordingLogger logger = new RecordingLogger();
        final EngineClient client;
        final StreamHandle<Numbered> stream;
        private final List<ConsumerSession> sessions = new CopyOnWriteArrayList<>();
        private Producer<Numbered> producer;

        private Rig(TestDatabase database, String streamName) {
            this.database = database;
            this.client = EngineFixtures.client(database, logger);
            this.stream = client.stream(streamName, Numbered.class);
            stream.register();
        }

        /** A second client on the same installation, logging to {@code otherLogger}: another process. */
        StreamHandle<Numbered> streamOfAnotherClient(RecordingLogger otherLogger) {
            return EngineFixtures.client(database, otherLogger).stream(stream.name(), Numbered.class);
        }

        ConsumerInstance<Numbered> register(String group, ConsumerConfig config) {
            return stream.consumer(group).register(config);
        }

        /** Starts a session and keeps it for {@link #close()}. */
        ConsumerSession start(ConsumerInstance<Numbered> instance, MessageHandler<Numbered> handler,
                              ConsumeOptions options) throws InterruptedException {
            ConsumerSession session = instance.start(handler, options);
            sessions.add(session);
            assertThat(session.awaitStarted(Duration.ofSeconds(10))).as("session started").isTrue();
            return session;
        }

        /** Produces one message with payload {@code n} and returns its id. */
        long produce(long n) {
            if (producer == null) {
                producer = stream.producer().register();
            }
            return producer.produce(new Numbered(n)).id();
        }

        /** Produces payloads 1..count in one transaction; returns their ids in order. */
        List<Long> produceNumbered(int count) {
            return ConsumeFixtures.produceNumbered(stream, count).stream().map(ProduceResult::id).toList();
        }

        long streamId() {
            return stream.get().orElseThrow().id();
        }

        long groupId(String group) {
            return stream.consumer(group).get().orElseThrow().id();
        }

        /** The group's worker_instance rows (live or not), a held cursor_advancer's included. */
        long instanceRows(String group) throws SQLException {
            return count("SELECT count(*) FROM {schema}.worker_instance i JOIN {schema}.worker_config w"
                    + " ON w.id = i.worker_id WHERE w.consumer_group_id = ?", groupId(group));
        }

        /**
         * The group's message_consumer and exception_consumer instance rows (live or not): the liveness rows every
         * running session holds, two each, whichever session holds the group's cursor_advancer.
         */
        long sessionRows(String group) throws SQLException {
            return count("SELECT count(*) FROM {schema}.worker_instance i JOIN {schema}.worker_config w"
                    + " ON w.id = i.worker_id WHERE w.consumer_group_id = ?"
                    + " AND w.name IN ('message_consumer', 'exception_consumer')", groupId(group));
        }

        /** worker_config_log rows of the group's workers. */
        long configLogRows(String group) throws SQLException {
            return count("SELECT count(*) FROM {schema}.worker_config_log l JOIN {schema}.worker_config w"
                    + " ON w.id = l.worker_id WHERE w.consumer_group_id = ?", groupId(group));
        }

        /** The group's worker rows as "name|metadata|updated_at", by name. */
        List<String> workerRows(String group) throws SQLException {
            return rows("SELECT name || '|' || metadata::text || '|' || updated_at::text FROM {schema}.worker_config"
                    + " WHERE consumer_group_id = ? ORDER BY name", groupId(group));
        }

        /** Overwrites the stored declaration on both of the group's declaration workers, behind the library's back. */
        void overwriteDeclaration(String group, String json) throws SQLException {
            try (Connection connection = database.dataSource().getConnection();
                 PreparedStatement update = connection.prepareStatement(expand(
                         "UPDATE {schema}.worker_config SET metadata = ?::jsonb WHERE consumer_group_id = ?"
                                 + " AND name IN ('message_consumer', 'exception_consumer')"))) {
                update.setString(1, json);
                update.setLong(2, groupId(group));
                assertThat(update.executeUpdate()).as("worker rows overwritten").isEqualTo(2);
            }
        }

        /** The exception row of one message as "status/attempts", or null without one. */
        String exceptionRow(String group, long messageId) throws SQLException {
            List<String> rows = rows("SELECT status || '/' || attempts FROM {schema}.exception_queue_" + streamId()
                    + " WHERE consumer_group_id = ? AND message_id = ?", groupId(group), messageId);
            return rows.isEmpty() ? null : rows.get(0);
        }

        /** Runs an update of the stream's lease rows behind the library's back; returns the rows it changed. */
        int leaseRows(String update, Object... arguments) throws SQLException {
            try (Connection connection = database.dataSource().getConnection();
                 PreparedStatement statement = connection.prepareStatement(expand(update))) {
                for (int i = 0; i < arguments.length; i++) {
                    statement.setObject(i + 1, arguments[i]);
                }
                return statement.executeUpdate();
            }
        }

        /** The SQL0041 lines of one session. */
        List<String> stopLines(ConsumerSession session) {
            return logger.withCode("SQL0041").stream().filter(line -> line.contains("session=" + session.id() + " "))
                    .toList();
        }

        /** Warning lines without a code that contain {@code text}. */
        List<String> warnings(String text) {
            return logger.lines().stream().filter(line -> line.level() == System.Logger.Level.WARNING)
                    .map(RecordingLogger.Line::text).filter(line -> line.contains(text)).toList();
        }

        private long count(String sql, Object... arguments) throws SQLException {
            return Long.parseLong(rows(sql, arguments).get(0));
        }

        private List<String> rows(String sql, Object... arguments) throws SQLException {
            try (Connection connection = database.dataSource().getConnection();
                 PreparedStatement query = connection.prepareStatement(expand(sql))) {
                for (int i = 0; i < arguments.length; i++) {
                    query.setObject(i + 1, arguments[i]);
                }
                List<String> values = new ArrayList<>();
                try (ResultSet row = query.executeQuery()) {
                    while (row.next()) {
                        values.add(row.getString(1));
                    }
                }
                return values;
            }
        }

        private String expand(String sql) {
            return sql.replace("{schema}", database.schema());
        }

        @Override
        public void close() {
            for (ConsumerSession session : sessions) {
                if (session.isRunning()) {
                    session.stop(Duration.ofMillis(200));
                }
            }
            if (producer != null) {
                producer.close();
            }
        }
    }

    /** One handler run as the handler saw it. */
    record Run(long n, String session, MessageMeta meta, Instant at) {
    }

    /** What a test's handler does with one payload after the run is recorded. */
    @FunctionalInterface
    interface Work {
        Work SUCCEED = run -> {
        };

        void perform(Run run) throws Exception;
    }

    /** Every handler run of a test, by payload number. */
    static final class Ledger {
        private final Map<Long, List<Run>> runs = new ConcurrentHashMap<>();
        private final Map<Long, CompletableFuture<Run>> firstRuns = new ConcurrentHashMap<>();

        /** A handler that records each run under {@code session} and then does {@code work}. */
        MessageHandler<Numbered> handler(String session, Work work) {
            return payload -> {
                Run run = new Run(payload.n(), session, MessageMeta.current(), Instant.now());
                runs.computeIfAbsent(payload.n(), n -> new CopyOnWriteArrayList<>()).add(run);
                firstRun(payload.n()).complete(run);
                work.perform(run);
            };
        }

        List<Run> runs(long n) {
            return runs.getOrDefault(n, List.of());
        }

        int runCount(long n) {
            return runs(n).size();
        }

        /** Payload numbers that ran at least once. */
        Set<Long> handled() {
            return Set.copyOf(runs.keySet());
        }

        long totalRuns() {
            return runs.values().stream().mapToLong(List::size).sum();
        }

        /** Payload numbers that ran more than once, with their runs. */
        Map<Long, List<Run>> duplicates() {
            Map<Long, List<Run>> duplicates = new TreeMap<>();
            runs.forEach((n, list) -> {
                if (list.size() > 1) {
                    duplicates.put(n, List.copyOf(list));
                }
            });
            return duplicates;
        }

        /** Waits for the first run of payload {@code n}. */
        Run awaitFirstRun(long n, Duration timeout) throws InterruptedException, TimeoutException {
            try {
                return firstRun(n).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException impossible) {
                throw new IllegalStateException(impossible);
            }
        }

        private CompletableFuture<Run> firstRun(long n) {
            return firstRuns.computeIfAbsent(n, key -> new CompletableFuture<>());
        }
    }
}
