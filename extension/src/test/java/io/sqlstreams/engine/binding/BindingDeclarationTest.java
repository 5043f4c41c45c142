package io.sqlstreams.engine.binding;

import static io.sqlstreams.engine.produce.LogRows.failsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Array;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.sqlstreams.Binding;
import io.sqlstreams.Code;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.engine.consume.ConsumeFixtures;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.Sql;

/**
 * How a binding declaration is recorded: the installed row and the pattern rows, joining an identical set, refusing
 * an empty pattern, the whole-stream set after a narrowed one, unknown groups, and the waiting rows a blocked
 * session writes while a live instance holds the old set.
 */
@PostgresTest
class BindingDeclarationTest extends EngineTestBase {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration RETRY = Duration.ofMillis(100);
    private static final String GROUP = "billing";
    private static final int SESSION_ATTEMPTS = 3;

    @SchemaVersion(1)
    public record Routed(String label) {
    }

    /** One row of binding_config_log. */
    record LogRow(String status, List<String> patterns, String declaredBy, Instant declaredAt, Instant attemptedAt) {
    }

    private final List<ConsumerSession> sessions = new CopyOnWriteArrayList<>();
    private final Set<String> received = ConcurrentHashMap.newKeySet();

    @AfterEach
    void stopSessions() {
        sessions.forEach(session -> session.stop(Duration.ofSeconds(1)));
    }

    @Test
    void registeringWithBindingsLogsTheInstalledSetAndWritesThePatternRows() throws SQLException {
        StreamHandle<Routed> stream = registered("declare.installed");
        Instant before = Instant.now();
        stream.consumer(GROUP).register(bindings("orders.*.created", "audit", "orders.*.created", "a+b"));
        Instant after = Instant.now();

        List<LogRow> log = log(stream);
        assertThat(log).hasSize(1);
        LogRow installed = log.get(0);
        assertThat(installed.status()).isEqualTo("installed");
        assertThat(installed.patterns()).as("sorted, duplicates dropped").containsExactly("a+b", "audit",
                "orders.*.created");
        assertThat(installed.declaredBy()).matches("[^:]+:" + ProcessHandle.current().pid() + ":[0-9a-f]{8}");
        assertThat(installed.declaredAt()).isBetween(before.minusSeconds(1), after.plusSeconds(1));
        assertThat(patternRows(stream)).containsExactly(List.of("a+b", "^a\\+b$"), List.of("audit", "^audit$"),
                List.of("orders.*.created", "^orders\\..*\\.created$"));

        Binding binding = stream.consumer(GROUP).binding().get().orElseThrow();
        assertThat(binding.status()).isEqualTo("installed");
        assertThat(binding.patterns()).isEqualTo(installed.patterns());
        assertThat(binding.declaredBy()).isEqualTo(installed.declaredBy());
        assertThat(binding.declaredAt()).isEqualTo(installed.declaredAt());
        assertThat(binding.attemptedAt()).isEqualTo(installed.attemptedAt());
        assertThat(binding.consumerGroup()).isEqualTo(GROUP);
        assertThat(binding.stream()).isEqualTo(stream.name());
    }

    @Test
    void anIdenticalRedeclarationJoinsAndWritesNothing() throws Exception {
        StreamHandle<Routed> stream = registered("declare.joined");
        stream.consumer(GROUP).register(bindings("eu.*", "us.*"));
        List<LogRow> log = log(stream);
        List<List<Object>> rows = patternRowsWithIds(stream);

        stream.consumer(GROUP).register(bindings("us.*", "eu.*", "us.*"));
        EngineClient other = EngineFixtures.client(database, new RecordingLogger());
        ConsumerInstance<Routed> fromElsewhere = other.stream(stream.name(), Routed.class).consumer(GROUP)
                .register(bindings("eu.*", "us.*"));
        start(fromElsewhere);
        produce(stream, "eu.1");
        await().atMost(WAIT).until(() -> received.contains("eu.1"));

        assertThat(log(stream)).as("no row for a joined declaration, from this or another declarer").isEqualTo(log);
        assertThat(patternRowsWithIds(stream)).as("pattern rows untouched").isEqualTo(rows);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " "})
    void anEmptyPatternFailsAtRegisterAndNothingIsWritten(String empty) throws Exception {
        StreamHandle<Routed> stream = registered("declare.empty." + (empty.isEmpty() ? "e" : "b"));
        InvalidConfigurationException refused = (InvalidConfigurationException) failsWith(Code.SQL0108,
                () -> stream.consumer("fresh").register(bindings("ok.*", empty)));
        assertThat(refused.violations()).extracting(InvalidConfigurationException.Violation::property)
                .containsExactly("bindings[1]");
        assertThat(stream.consumer("fresh").get()).as("no group created").isEmpty();

        stream.consumer(GROUP).register(bindings("a.*"));
        List<LogRow> log = log(stream);
        List<List<Object>> rows = patternRowsWithIds(stream);
        failsWith(Code.SQL0108, () -> stream.consumer(GROUP).register(bindings(empty, "b.*")));
        assertThat(log(stream)).isEqualTo(log);
        assertThat(patternRowsWithIds(stream)).isEqualTo(rows);
        assertThat(stream.consumer(GROUP).binding().get().orElseThrow().patterns()).containsExactly("a.*");
    }

    @Test
    void aGroupThatDeclaresBindingsStopsReceivingKeylessMessages() throws Exception {
        StreamHandle<Routed> stream = registered("declare.keyless");
        ConsumerSession wholeStream = start(stream.consumer(GROUP).register(ConsumerConfig.builder().build()));
        produce(stream, null, "keyless-before");
        produce(stream, "orders.1");
        await().atMost(WAIT).until(() -> received.containsAll(List.of("keyless-before", "orders.1")));
        wholeStream.stop(Duration.ofSeconds(1));

        start(stream.consumer(GROUP).register(bindings("orders.*")));
        assertThat(stream.consumer(GROUP).binding().get().orElseThrow().patterns()).containsExactly("orders.*");
        produce(stream, null, "keyless-after");
        produce(stream, "billing.2");
        produce(stream, "orders.3");
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(received).contains("orders.3");
            assertThat(stream.consumer(GROUP).inspect().committed()).isEqualTo(head(stream));
        });
        assertThat(received).containsExactlyInAnyOrder("keyless-before", "orders.1", "orders.3");
    }

    @Test
    void theBindingOfAnUnknownGroupOrStreamIsAnError() {
        StreamHandle<Routed> stream = registered("declare.unknown");
        failsWith(Code.SQL0014, () -> stream.consumer("nobody").binding().get());
        failsWith(Code.SQL0005, () -> client.stream("declare.no.such.stream", Routed.class).consumer(GROUP)
                .binding().get());
    }

    @Test
    void redeclaringNullBindingsInstallsTheWholeStreamSetOnceNothingIsLive() throws Exception {
        StreamHandle<Routed> stream = registered("declare.null.session");
        stream.consumer(GROUP).register(bindings("orders.*"));

        start(stream.consumer(GROUP).register(ConsumerConfig.builder().bindings(null).build()));
        await().atMost(WAIT).until(() -> stream.consumer(GROUP).binding().get().isEmpty());
        assertWholeStreamSetInstalled(stream);
        produce(stream, null, "keyless");
        await().atMost(WAIT).until(() -> received.contains("keyless"));
    }

    /**
     * {@code null} and an empty list both mean the whole stream (ConsumerConfig#bindings), and register declares
     * the bindings once: with nothing live, registering either one installs the whole-stream set at once.
     */
    @ParameterizedTest(name = "bindings null: {0}")
    @ValueSource(booleans = {false, true})
    void registerDeclaresTheWholeStreamSetForNullAsForAnEmptyList(boolean asNull) throws Exception {
        StreamHandle<Routed> stream = registered("declare.null.register." + asNull);
        stream.consumer(GROUP).register(bindings("orders.*"));

        stream.consumer(GROUP).register(ConsumerConfig.builder().bindings(asNull ? null : List.of()).build());
        assertThat(stream.consumer(GROUP).binding().get()).as("effective set right after register").isEmpty();
        assertWholeStreamSetInstalled(stream);
    }

    @Test
    void aBlockedSessionLogsOneWaitingRowPerAttemptUntilTheLiveInstanceStops() throws Exception {
        Blocked blocked = blockedRedeclaration("declare.waiting");
        List<LogRow> own = blocked.rowsOf(blocked.declarer());
        List<LogRow> waiting = own.stream().filter(row -> row.status().equals("waiting")).toList();
        assertThat(own.get(own.size() - 1).status()).as("the last attempt installed").isEqualTo("installed");
        assertThat(own).allMatch(row -> row.patterns().equals(List.of("us.*")));
        assertThat(waiting).as("one row for register plus one per blocked session attempt")
                .hasSizeGreaterThanOrEqualTo(1 + SESSION_ATTEMPTS);
        assertThat(blocked.waitingLines()).as("the repeated warning collapsed within its minute").singleElement()
                .asString().contains("binding set [us.*] of", "waits for the group's live instances to stop");
        List<LogRow> sessionRows = waiting.subList(1, waiting.size());
        for (int i = 1; i < sessionRows.size(); i++) {
            assertThat(Duration.between(sessionRows.get(i - 1).attemptedAt(), sessionRows.get(i).attemptedAt()))
                    .as("attempts are BindingRetryInterval apart").isGreaterThanOrEqualTo(RETRY.minusMillis(10));
        }
        assertThat(blocked.log()).as("the holder's own session joined: nothing written by it")
                .filteredOn(row -> !row.declaredBy().equals(blocked.declarer())).hasSize(1);
    }

    /** Binding#declaredAt: "when that declarer first stated this set" — every attempt of it carries the same. */
    @Test
    void everyAttemptOfOneDeclarerCarriesTheTimeItFirstStatedTheSet() throws Exception {
        Blocked blocked = blockedRedeclaration("declare.declared.at");
        List<LogRow> own = blocked.rowsOf(blocked.declarer());
        assertThat(own).extracting(LogRow::declaredAt).as("declared_at of register, session attempts, install")
                .containsOnly(own.get(0).declaredAt());
    }

    /** What {@link #blockedRedeclaration} saw: the whole log, the redeclaring client's id and its SQL0118 lines. */
    record Blocked(List<LogRow> log, String declarer, List<String> waitingLines) {
        List<LogRow> rowsOf(String declaredBy) {
            return log.stream().filter(row -> row.declaredBy().equals(declaredBy)).toList();
        }
    }

    /**
     * A live session holds {eu.*}; another client redeclares {us.*} (register, then a session retrying every 100
     * ms); once the redeclaring session has been turned away three times the holder stops and the new set lands.
     */
    private Blocked blockedRedeclaration(String name) throws Exception {
        StreamHandle<Routed> stream = registered(name);
        ConsumerSession holder = start(stream.consumer(GROUP).register(bindings("eu.*")));
        String holderId = log(stream).get(0).declaredBy();

        RecordingLogger otherLogger = new RecordingLogger();
        EngineClient other = EngineFixtures.client(database, otherLogger);
        ConsumerInstance<Routed> redeclared = other.stream(stream.name(), Routed.class).consumer(GROUP)
                .register(bindings("us.*"));
        start(redeclared);
        await().atMost(WAIT).until(() -> log(stream).stream().filter(row -> !row.declaredBy().equals(holderId)
                && row.status().equals("waiting")).count() >= 1 + SESSION_ATTEMPTS);
        assertThat(stream.consumer(GROUP).binding().get().orElseThrow().patterns()).as("the effective set holds")
                .containsExactly("eu.*");
        assertThat(patternRows(stream)).containsExactly(List.of("eu.*", "^eu\\..*$"));

        holder.stop(Duration.ofSeconds(1));
        await().atMost(WAIT).until(() -> stream.consumer(GROUP).binding().get()
                .map(binding -> binding.patterns().equals(List.of("us.*"))).orElse(false));
        assertThat(patternRows(stream)).containsExactly(List.of("us.*", "^us\\..*$"));
        List<LogRow> log = log(stream);
        String declarer = log.stream().map(LogRow::declaredBy).filter(by -> !by.equals(holderId)).findFirst()
                .orElseThrow();
        return new Blocked(log, declarer, otherLogger.withCode(Code.SQL0118.id()));
    }

    private void assertWholeStreamSetInstalled(StreamHandle<Routed> stream) throws SQLException {
        List<LogRow> log = log(stream);
        assertThat(log.get(log.size() - 1).status()).isEqualTo("installed");
        assertThat(log.get(log.size() - 1).patterns()).as("the whole-stream set").isEmpty();
        assertThat(patternRows(stream)).isEmpty();
    }

    private StreamHandle<Routed> registered(String name) {
        StreamHandle<Routed> stream = client.stream(name, Routed.class);
        stream.register();
        return stream;
    }

    private static ConsumerConfig bindings(String... patterns) {
        return ConsumerConfig.builder().bindings(Arrays.asList(patterns)).build();
    }

    private ConsumerSession start(ConsumerInstance<Routed> instance) throws InterruptedException {
        ConsumerSession session = instance.start(message -> received.add(message.label()),
                ConsumeFixtures.fastSession().bindingRetryInterval(RETRY).build());
        sessions.add(session);
        assertThat(session.awaitStarted(Duration.ofSeconds(10))).isTrue();
        return session;
    }

    private static void produce(StreamHandle<Routed> stream, String routingKey) {
        produce(stream, routingKey, routingKey);
    }

    private static void produce(StreamHandle<Routed> stream, String routingKey, String label) {
        try (Producer<Routed> producer = stream.producer().register()) {
            producer.produce(new Routed(label), ProduceOptions.builder().routingKey(routingKey).build());
        }
    }

    private Sql sql() {
        return new Sql(database);
    }

    private static long streamId(StreamHandle<?> stream) {
        return stream.get().orElseThrow().id();
    }

    private long head(StreamHandle<?> stream) throws SQLException {
        return sql().count("SELECT coalesce(max(id), 0) FROM {s}.message_log_" + streamId(stream));
    }

    private long groupId(StreamHandle<?> stream) {
        return stream.consumer(GROUP).get().orElseThrow().id();
    }

    /** The group's binding_config_log rows in insertion order. */
    private List<LogRow> log(StreamHandle<?> stream) throws SQLException {
        List<LogRow> rows = new ArrayList<>();
        for (List<Object> row : sql().rows("SELECT status, patterns, declared_by, declared_at, attempted_at FROM {s}"
                + ".binding_config_log_" + streamId(stream) + " WHERE consumer_group_id = ? ORDER BY id",
                groupId(stream))) {
            rows.add(new LogRow((String) row.get(0), Arrays.asList((String[]) ((Array) row.get(1)).getArray()),
                    (String) row.get(2), ((Timestamp) row.get(3)).toInstant(), ((Timestamp) row.get(4)).toInstant()));
        }
        return rows;
    }

    /** The group's binding_config rows as [pattern, regex], by pattern. */
    private List<List<String>> patternRows(StreamHandle<?> stream) throws SQLException {
        return sql().table("SELECT pattern, pattern_regex FROM {s}.binding_config_" + streamId(stream)
                + " WHERE consumer_group_id = ? ORDER BY pattern", groupId(stream));
    }

    /** The same with each row's id and timestamps, to tell a rewrite from untouched rows. */
    private List<List<Object>> patternRowsWithIds(StreamHandle<?> stream) throws SQLException {
        return sql().rows("SELECT id, pattern, pattern_regex, created_at, updated_at FROM {s}.binding_config_"
                + streamId(stream) + " WHERE consumer_group_id = ? ORDER BY pattern", groupId(stream));
    }
}
