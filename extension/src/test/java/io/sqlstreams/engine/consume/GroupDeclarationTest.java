package io.sqlstreams.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.Code;
import io.sqlstreams.Concurrency;
import io.sqlstreams.Consumer;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.InvalidNameException;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Start;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.Worker;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;

/**
 * A consumer group's declaration against a real PostgreSQL (seed "Consumer Group Config", digest §3.4–3.6):
 * what the first {@code register} creates, the sparse document on both worker rows, newest wins with SQL0059 on
 * every differing overwrite, {@code Start} read once, {@code get} and {@code consumers}, and bad input rejected
 * before anything is written.
 */
@PostgresTest
class GroupDeclarationTest extends GroupTestBase {
    private static final String DECLARED_BY = "^.+:\\d+:[0-9a-f]{8}$";
    private static final String WORKER_CONFIG_REPLACED = "SQL0059";
    private static final String CURSOR_ADVANCER = "cursor_advancer";

    /** A payload type without {@code @SchemaVersion}. */
    public record Unversioned(long n) {
    }

    @Test
    void firstRegisterCreatesTheGroupItsCursorAndItsWorkerRows() throws SQLException {
        StreamHandle<Numbered> stream = registeredStream("decl.first");
        long streamId = stream.get().orElseThrow().id();
        ConsumerHandle<Numbered> handle = stream.consumer("billing");

        handle.register();

        long groupId = groupId(handle);
        assertThat(probe.count("SELECT count(*) FROM {s}.consumer_group_config WHERE id = ? AND stream_id = ?"
                + " AND name = ?", groupId, streamId, "billing")).isEqualTo(1);
        assertThat(probe.cursor(streamId, groupId)).containsExactly(0L, 0L, 0L, 0L);
        assertThat(probe.workers(groupId)).extracting(row -> row.get(0))
                .containsExactlyElementsOf(GroupProbe.ALL_WORKER_NAMES);
        assertStoredDocument(groupId, "{}");
        for (String worker : GroupProbe.ALL_WORKER_NAMES) {
            List<List<String>> log = probe.table("SELECT l.metadata::text, l.target_instances::text, l.declared_by"
                    + " FROM {s}.worker_config_log l JOIN {s}.worker_config w ON w.id = l.worker_id"
                    + " WHERE w.consumer_group_id = ? AND w.name = ? AND l.name = w.name", groupId, worker);
            assertThat(log).as("config log of %s", worker).hasSize(1);
            assertThat(probe.sameJson(log.get(0).get(0), "{}")).isTrue();
            assertThat(log.get(0).get(1)).isEqualTo(worker.equals(CURSOR_ADVANCER) ? "1" : "-1");
            assertThat(log.get(0).get(2)).matches(DECLARED_BY);
        }
        assertThat(logger.withCode(Code.SQL0116.id())).singleElement().asString()
                .contains("\"billing\"", "\"decl.first\"", "beginning", "committed=0");
        assertThat(logger.withCode(WORKER_CONFIG_REPLACED)).isEmpty();
    }

    @Test
    void workersListsEveryRowWithItsStoredDocumentTargetAndLiveCount() throws SQLException {
        ConsumerHandle<Numbered> handle = registeredGroup("decl.workers", "ledger",
                messageDefaults(Duration.ofSeconds(10), 5));
        long groupId = groupId(handle);
        List<List<String>> rows = probe.table("SELECT id::text, name FROM {s}.worker_config"
                + " WHERE consumer_group_id = ? ORDER BY name", groupId);

        List<Worker> workers = handle.workers();

        assertThat(workers).extracting(Worker::name).containsExactlyElementsOf(GroupProbe.ALL_WORKER_NAMES);
        assertThat(workers).extracting(worker -> Long.toString(worker.id()))
                .containsExactly(rows.get(0).get(0), rows.get(1).get(0), rows.get(2).get(0));
        for (Worker worker : workers) {
            boolean advancer = worker.name().equals(CURSOR_ADVANCER);
            assertThat(probe.sameJson(worker.metadata(), advancer ? "{}" : "{\"message\": {\"timeout\": \"10s\","
                    + " \"retry\": {\"max_retries\": 5}}}")).as("metadata of %s: %s", worker.name(), worker.metadata())
                    .isTrue();
            assertThat(worker.targetInstances()).as("target of %s", worker.name()).isEqualTo(advancer ? 1 : -1);
            assertThat(worker.liveInstances()).isZero();
            assertThat(worker.createdAt()).isNotNull();
            assertThat(worker.updatedAt()).isNotNull();
        }
    }

    static Stream<Arguments> declarations() {
        RetryPolicy tenRetries = RetryPolicy.builder().maxRetries(10).build();
        return Stream.of(
                Arguments.of("defaults", ConsumerConfig.defaults(), "{}"),
                Arguments.of("message", messageDefaults(Duration.ofSeconds(10), 5),
                        "{\"message\": {\"timeout\": \"10s\", \"retry\": {\"max_retries\": 5}}}"),
                Arguments.of("message-min", ConsumerConfig.builder()
                                .messageMin(MessageOptions.builder().timeout(Duration.ofSeconds(1)).build()).build(),
                        "{\"message_min\": {\"timeout\": \"1s\"}}"),
                Arguments.of("message-max", ConsumerConfig.builder().messageMax(MessageOptions.builder()
                                .timeout(Duration.ofSeconds(20)).retry(tenRetries).build()).build(),
                        "{\"message_max\": {\"timeout\": \"20s\", \"retry\": {\"max_retries\": 10}}}"),
                Arguments.of("override", ConsumerConfig.builder().concurrencyOverride(Concurrency.EXCLUSIVE).build(),
                        "{\"concurrency_override\": \"exclusive\"}"),
                Arguments.of("backoff", ConsumerConfig.builder().exceptionInitialBackoff(Duration.ofSeconds(2)).build(),
                        "{\"exception_initial_backoff\": \"2s\"}"),
                Arguments.of("reclaims", ConsumerConfig.builder().maxRangeReclaims(7).build(),
                        "{\"max_range_reclaims\": 7}"),
                Arguments.of("start-only", ConsumerConfig.builder().start(Start.HEAD).build(), "{}"),
                Arguments.of("everything", messageDefaults(Duration.ofSeconds(10), 5).toBuilder()
                                .messageMin(MessageOptions.builder().timeout(Duration.ofSeconds(1)).build())
                                .messageMax(MessageOptions.builder().timeout(Duration.ofSeconds(20)).build())
                                .concurrencyOverride(Concurrency.EXCLUSIVE)
                                .exceptionInitialBackoff(Duration.ofSeconds(2))
                                .maxRangeReclaims(7)
                                .start(Start.HEAD)
                                .build(),
                        "{\"message\": {\"timeout\": \"10s\", \"retry\": {\"max_retries\": 5}},"
                                + " \"message_min\": {\"timeout\": \"1s\"}, \"message_max\": {\"timeout\": \"20s\"},"
                                + " \"concurrency_override\": \"exclusive\", \"exception_initial_backoff\": \"2s\","
                                + " \"max_range_reclaims\": 7}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("declarations")
    void storesOnlyTheDeclaredFieldsOnBothWorkerRows(String label, ConsumerConfig config, String expected)
            throws SQLException {
        ConsumerHandle<Numbered> handle = registeredStream("decl.docs").consumer("doc-" + label);

        handle.register(config);

        long groupId = groupId(handle);
        assertStoredDocument(groupId, expected);
        assertThat(handle.workers()).filteredOn(worker -> GroupProbe.WORKER_NAMES.contains(worker.name()))
                .hasSize(2).allSatisfy(worker -> assertThat(probe.sameJson(worker.metadata(), expected))
                        .as("workers() metadata of %s: %s", worker.name(), worker.metadata()).isTrue());
        for (String worker : GroupProbe.WORKER_NAMES) {
            assertThat(probe.bool("SELECT l.metadata = ?::jsonb FROM {s}.worker_config_log l"
                    + " JOIN {s}.worker_config w ON w.id = l.worker_id WHERE w.consumer_group_id = ?"
                    + " AND w.name = ?", expected, groupId, worker)).as("log snapshot of %s", worker).isTrue();
        }
    }

    @Test
    void startHeadPlacesTheCursorAtTheVisibleHeadAndIsReadOnce() throws SQLException {
        StreamHandle<Numbered> stream = registeredStream("decl.head");
        long streamId = stream.get().orElseThrow().id();
        ConsumeFixtures.produceNumbered(stream, 5);
        ConsumerHandle<Numbered> handle = stream.consumer("from-head");

        handle.register(ConsumerConfig.builder().start(Start.HEAD).build());

        long groupId = groupId(handle);
        assertThat(probe.cursor(streamId, groupId)).containsExactly(5L, 5L, 5L, 5L);
        assertThat(logger.withCode(Code.SQL0116.id())).singleElement().asString()
                .contains("\"from-head\"", "head", "committed=5");

        long logRows = probe.allConfigLog();
        handle.register(ConsumerConfig.builder().start(Start.BEGINNING).build());

        assertThat(probe.cursor(streamId, groupId)).as("start is read once, at creation")
                .containsExactly(5L, 5L, 5L, 5L);
        assertThat(logger.withCode(Code.SQL0116.id())).hasSize(1);
        assertThat(probe.allConfigLog()).as("start is not stored, so the document is identical").isEqualTo(logRows);
        assertThat(logger.withCode(WORKER_CONFIG_REPLACED)).isEmpty();

        ConsumerHandle<Numbered> fromBeginning = stream.consumer("from-beginning");
        fromBeginning.register(ConsumerConfig.builder().start(Start.BEGINNING).build());
        assertThat(probe.cursor(streamId, groupId(fromBeginning))).containsExactly(0L, 0L, 0L, 0L);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("declarations")
    void anIdenticalRedeclarationWritesNothing(String label, ConsumerConfig config, String stored) throws SQLException {
        ConsumerHandle<Numbered> handle = registeredGroup("decl.same", "same-" + label, config);
        long groupId = groupId(handle);
        List<List<String>> before = workerState(groupId);
        long logRows = probe.allConfigLog();

        handle.register(config.toBuilder().build());

        assertThat(workerState(groupId)).isEqualTo(before);
        assertThat(probe.allConfigLog()).isEqualTo(logRows);
        assertThat(logger.withCode(WORKER_CONFIG_REPLACED)).isEmpty();
    }

    @Test
    void aDifferingRedeclarationReplacesBothWorkersLogsASnapshotEachAndWarns() throws SQLException {
        ConsumerHandle<Numbered> handle = registeredGroup("decl.differ", "charge-cards",
                messageDefaults(Duration.ofSeconds(10), 3));
        long groupId = groupId(handle);
        List<List<String>> before = workerState(groupId);

        handle.register(messageDefaults(Duration.ofSeconds(10), 5).toBuilder()
                .concurrencyOverride(Concurrency.EXCLUSIVE).build());

        String expected = "{\"message\": {\"timeout\": \"10s\", \"retry\": {\"max_retries\": 5}},"
                + " \"concurrency_override\": \"exclusive\"}";
        assertStoredDocument(groupId, expected);
        List<List<String>> after = workerState(groupId);
        assertThat(after).hasSize(3);
        for (int i = 0; i < after.size(); i++) {
            assertThat(after.get(i).get(0)).as("worker row id kept").isEqualTo(before.get(i).get(0));
            if (after.get(i).get(1).equals(CURSOR_ADVANCER)) {
                assertThat(after.get(i)).as("the cursor_advancer row is not the declaration's")
                        .isEqualTo(before.get(i));
            } else {
                assertThat(after.get(i).get(2)).as("updated_at of %s moves", after.get(i).get(1))
                        .isNotEqualTo(before.get(i).get(2));
            }
        }
        for (String worker : GroupProbe.WORKER_NAMES) {
            assertThat(probe.configLog(groupId, worker)).as("snapshots of %s", worker).isEqualTo(2);
            assertThat(probe.bool("SELECT l.metadata = ?::jsonb AND l.declared_by ~ ? FROM {s}.worker_config_log l"
                    + " JOIN {s}.worker_config w ON w.id = l.worker_id WHERE w.consumer_group_id = ?"
                    + " AND w.name = ? ORDER BY l.id DESC LIMIT 1", expected, DECLARED_BY, groupId, worker))
                    .as("newest snapshot of %s", worker).isTrue();
        }
        assertReplacedOnce(logger, "charge-cards", "decl.differ",
                "message.retry.max_retries 3 -> 5; concurrency_override (unset) -> exclusive");
        assertThat(logger.lines()).filteredOn(line -> line.text().startsWith(WORKER_CONFIG_REPLACED + " "))
                .allSatisfy(line -> assertThat(line.level()).isEqualTo(System.Logger.Level.WARNING));
    }

    @Test
    void aRedeclarationWithAnotherRetryBudgetLogsOnlyThatChangeOnce() throws SQLException {
        ConsumerHandle<Numbered> handle = registeredGroup("decl.budget", "charge-cards",
                messageDefaults(Duration.ofSeconds(10), 3));

        handle.register(messageDefaults(Duration.ofSeconds(10), 5));

        assertReplacedOnce(logger, "charge-cards", "decl.budget", "message.retry.max_retries 3 -> 5");
        assertThat(logger.withCode(WORKER_CONFIG_REPLACED)).singleElement().asString()
                .as("the unchanged rest of the document stays out of the line").doesNotContain("timeout", "10s", "{");
    }

    @Test
    void aNullDeclarationWritesTheEmptyDocument() throws SQLException {
        ConsumerHandle<Numbered> handle = registeredGroup("decl.null", "reset",
                ConsumerConfig.builder().maxRangeReclaims(7).build());
        long groupId = groupId(handle);

        handle.register(null);

        assertStoredDocument(groupId, "{}");
        assertReplacedOnce(logger, "reset", "decl.null", "max_range_reclaims 7 -> (unset)");
        for (String worker : GroupProbe.WORKER_NAMES) {
            assertThat(probe.configLog(groupId, worker)).isEqualTo(2);
        }

        handle.register(ConsumerConfig.defaults());

        assertThat(logger.withCode(WORKER_CONFIG_REPLACED)).as("defaults are the same empty document").hasSize(1);
        assertThat(probe.configLog(groupId, "message_consumer")).isEqualTo(2);
    }

    @Test
    void twoDeclaringServicesOverwriteEachOtherOnEveryRestart() throws SQLException {
        registeredStream("decl.fight");
        ConsumerConfig serviceA = messageDefaults(Duration.ofSeconds(10), 3);
        ConsumerConfig serviceB = messageDefaults(Duration.ofSeconds(10), 5);
        String documentA = "{\"message\": {\"timeout\": \"10s\", \"retry\": {\"max_retries\": 3}}}";
        String documentB = "{\"message\": {\"timeout\": \"10s\", \"retry\": {\"max_retries\": 5}}}";
        long groupId = 0;
        List<String> firstLinesOfB = List.of();
        for (int restart = 1; restart <= 2; restart++) {
            RecordingLogger loggerA = new RecordingLogger();
            RecordingLogger loggerB = new RecordingLogger();
            ConsumerHandle<Numbered> handleA = EngineFixtures.client(database, loggerA)
                    .stream("decl.fight", Numbered.class).consumer("contested");
            ConsumerHandle<Numbered> handleB = EngineFixtures.client(database, loggerB)
                    .stream("decl.fight", Numbered.class).consumer("contested");

            handleA.register(serviceA);
            groupId = groupId(handleA);
            assertStoredDocument(groupId, documentA);
            if (restart == 1) {
                assertThat(loggerA.withCode(WORKER_CONFIG_REPLACED)).as("the first declaration creates").isEmpty();
            } else {
                assertReplacedOnce(loggerA, "contested", "decl.fight", "message.retry.max_retries 5 -> 3");
            }

            handleB.register(serviceB);
            assertStoredDocument(groupId, documentB);
            assertReplacedOnce(loggerB, "contested", "decl.fight", "message.retry.max_retries 3 -> 5");
            if (restart == 1) {
                firstLinesOfB = loggerB.withCode(WORKER_CONFIG_REPLACED);
            } else {
                assertThat(loggerB.withCode(WORKER_CONFIG_REPLACED)).as("the same line on every restart is the tell")
                        .isEqualTo(firstLinesOfB);
            }
        }
        for (String worker : GroupProbe.WORKER_NAMES) {
            assertThat(probe.configLog(groupId, worker)).as("one creation and three overwrites of %s", worker)
                    .isEqualTo(4);
        }
    }

    @Test
    void twoLiveClientsOverwriteEachOtherAlternately() throws SQLException {
        registeredStream("decl.alternate");
        RecordingLogger loggerB = new RecordingLogger();
        ConsumerHandle<Numbered> handleA = client.stream("decl.alternate", Numbered.class).consumer("alternate");
        ConsumerHandle<Numbered> handleB = EngineFixtures.client(database, loggerB)
                .stream("decl.alternate", Numbered.class).consumer("alternate");
        ConsumerConfig serviceA = ConsumerConfig.builder().exceptionInitialBackoff(Duration.ofSeconds(2)).build();
        ConsumerConfig serviceB = ConsumerConfig.builder().exceptionInitialBackoff(Duration.ofSeconds(3)).build();

        handleA.register(serviceA);
        handleB.register(serviceB);
        long groupId = groupId(handleA);
        assertStoredDocument(groupId, "{\"exception_initial_backoff\": \"3s\"}");
        assertReplacedOnce(loggerB, "alternate", "decl.alternate", "exception_initial_backoff 2s -> 3s");

        handleA.register(serviceA);
        assertStoredDocument(groupId, "{\"exception_initial_backoff\": \"2s\"}");
        assertReplacedOnce(logger, "alternate", "decl.alternate", "exception_initial_backoff 3s -> 2s");
        for (String worker : GroupProbe.WORKER_NAMES) {
            assertThat(probe.configLog(groupId, worker)).isEqualTo(3);
        }
    }

    @Test
    void replicasRegisteringAtOnceCreateOneGroup() throws Exception {
        StreamHandle<Numbered> stream = registeredStream("decl.race");
        long streamId = stream.get().orElseThrow().id();
        int replicas = 6;
        List<ConsumerHandle<Numbered>> handles = IntStream.range(0, replicas)
                .mapToObj(replica -> EngineFixtures.client(database, logger).stream("decl.race", Numbered.class)
                        .consumer("raced"))
                .toList();
        CyclicBarrier together = new CyclicBarrier(replicas);
        ExecutorService threads = Executors.newFixedThreadPool(replicas);
        try {
            List<Future<Long>> registered = handles.stream().map(handle -> threads.submit(() -> {
                together.await(10, TimeUnit.SECONDS);
                handle.register(messageDefaults(Duration.ofSeconds(10), 5));
                return groupId(handle);
            })).toList();
            for (Future<Long> replica : registered) {
                assertThat(replica.get(30, TimeUnit.SECONDS)).isEqualTo(groupId(handles.get(0)));
            }
        } finally {
            threads.shutdownNow();
        }

        long groupId = groupId(handles.get(0));
        assertThat(probe.count("SELECT count(*) FROM {s}.consumer_group_config WHERE stream_id = ?", streamId))
                .isEqualTo(1);
        assertThat(probe.cursor(streamId, groupId)).containsExactly(0L, 0L, 0L, 0L);
        assertStoredDocument(groupId, "{\"message\": {\"timeout\": \"10s\", \"retry\": {\"max_retries\": 5}}}");
        for (String worker : GroupProbe.WORKER_NAMES) {
            assertThat(probe.configLog(groupId, worker)).as("one creation snapshot of %s", worker).isEqualTo(1);
        }
        assertThat(probe.configLog(groupId, CURSOR_ADVANCER)).as("one cursor_advancer, created once").isEqualTo(1);
        assertThat(logger.withCode(Code.SQL0116.id())).hasSize(1);
        assertThat(logger.withCode(WORKER_CONFIG_REPLACED)).isEmpty();
    }

    @Test
    void aLostWorkerRowHealsOnTheNextRegister() throws SQLException {
        ConsumerHandle<Numbered> handle = registeredGroup("decl.heal", "healed",
                ConsumerConfig.builder().maxRangeReclaims(4).build());
        long groupId = groupId(handle);
        for (String lost : List.of("exception_consumer", CURSOR_ADVANCER)) {
            probe.update("DELETE FROM {s}.worker_config WHERE consumer_group_id = ? AND name = ?", groupId, lost);
        }

        handle.register(ConsumerConfig.builder().maxRangeReclaims(4).build());

        assertStoredDocument(groupId, "{\"max_range_reclaims\": 4}");
        assertThat(probe.configLog(groupId, "exception_consumer")).isEqualTo(1);
        assertThat(probe.configLog(groupId, "message_consumer")).isEqualTo(1);
        assertThat(probe.configLog(groupId, CURSOR_ADVANCER)).isEqualTo(1);
        assertThat(logger.withCode(WORKER_CONFIG_REPLACED)).isEmpty();
    }

    @Test
    void getIsEmptyUntilTheGroupIsRegistered() throws SQLException {
        EngineClient uninstalled = EngineClient.create(database.dataSource(), ClientConfig.builder()
                        .schema(database.schema() + "_none").logger(new RecordingLogger()).build(),
                EngineEnvironment.standalone());
        assertThat(uninstalled.stream("decl.get", Numbered.class).consumer("reader").get())
                .as("before installation").isEmpty();
        assertThat(refusal(() -> uninstalled.stream("decl.get", Numbered.class).consumer("reader").register()))
                .as("register before installation").isEqualTo(Code.SQL0005);
        assertThat(probe.count("SELECT count(*) FROM pg_namespace WHERE nspname = ?", database.schema() + "_none"))
                .as("get and a refused register create nothing").isZero();

        StreamHandle<Numbered> stream = registeredStream("decl.get");
        assertThat(client.stream("decl.get-missing", Numbered.class).consumer("reader").get())
                .as("unknown stream").isEmpty();
        ConsumerHandle<Numbered> handle = stream.consumer("reader");
        assertThat(handle.get()).as("unknown group").isEmpty();
        assertThat(refusal(handle::workers)).as("workers() of an unknown group").isEqualTo(Code.SQL0014);
        assertThat(refusal(handle::inspect)).as("inspect() of an unknown group").isEqualTo(Code.SQL0014);
        assertThat(refusal(client.stream("decl.get-missing", Numbered.class).consumer("reader")::workers))
                .as("workers() on an unknown stream").isEqualTo(Code.SQL0005);

        handle.register();

        Consumer consumer = handle.get().orElseThrow();
        assertThat(consumer.name()).isEqualTo("reader");
        assertThat(consumer.stream()).isEqualTo("decl.get");
        assertThat(consumer.id()).isEqualTo(probe.count("SELECT id FROM {s}.consumer_group_config"
                + " WHERE stream_id = ? AND name = ?", stream.get().orElseThrow().id(), "reader"));
        assertThat(consumer.createdAt()).isNotNull();
        assertThat(consumer.updatedAt()).isNotNull();
    }

    @Test
    void consumersListsTheStreamsGroupsOrderedByName() {
        StreamHandle<Numbered> stream = registeredStream("decl.list");
        registeredStream("decl.list-other").consumer("aardvark").register();
        for (String group : List.of("charlie", "alpha", "bravo")) {
            stream.consumer(group).register();
        }

        List<Consumer> consumers = stream.consumers();

        assertThat(consumers).extracting(Consumer::name).containsExactly("alpha", "bravo", "charlie");
        assertThat(consumers).extracting(Consumer::stream).containsOnly("decl.list");
        assertThat(consumers).extracting(Consumer::id).doesNotHaveDuplicates();
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"a b", "x/y", "drop;table"})
    void invalidGroupNamesAreRejectedBeforeAnyWrite(String name) throws SQLException {
        StreamHandle<Numbered> stream = registeredStream("decl.names");
        List<Long> footprint = probe.groupFootprint();

        InvalidNameException rejected = catchThrowableOfType(InvalidNameException.class,
                () -> stream.consumer(name).register());

        assertThat(rejected).as("register(%s)", name).isNotNull();
        assertThat(rejected.code()).isEqualTo(Code.SQL0109);
        assertThat(rejected.kind()).isEqualTo("consumer group");
        assertThat(rejected.name()).isEqualTo(name);
        assertThat(probe.groupFootprint()).isEqualTo(footprint);
    }

    @Test
    void anInvalidDeclarationListsEveryViolationAndWritesNothing() throws SQLException {
        StreamHandle<Numbered> stream = registeredStream("decl.invalid");
        List<Long> footprint = probe.groupFootprint();
        ConsumerConfig invalid = ConsumerConfig.builder()
                .maxRangeReclaims(-1)
                .exceptionInitialBackoff(Duration.ofSeconds(-1))
                .bindings(List.of(" "))
                .message(MessageOptions.builder().timeout(Duration.ofSeconds(-5)).build())
                .build();

        InvalidConfigurationException rejected = catchThrowableOfType(InvalidConfigurationException.class,
                () -> stream.consumer("invalid").register(invalid));

        assertThat(rejected).isNotNull();
        assertThat(rejected.code()).isEqualTo(Code.SQL0108);
        assertThat(rejected.violations()).extracting(InvalidConfigurationException.Violation::property)
                .containsExactlyInAnyOrder("maxRangeReclaims", "exceptionInitialBackoff", "bindings[0]",
                        "message.timeout");
        assertThat(probe.groupFootprint()).isEqualTo(footprint);
        assertThat(stream.consumer("invalid").get()).isEmpty();
    }

    @Test
    void aPayloadTypeWithoutSchemaVersionIsRejectedWithTheDeploymentsCode() throws SQLException {
        registeredStream("decl.unversioned");
        List<Long> footprint = probe.groupFootprint();

        SqlStreamsException rejected = catchThrowableOfType(SqlStreamsException.class,
                () -> client.stream("decl.unversioned", Unversioned.class).consumer("raw").register());

        assertThat(rejected).isNotNull().isNotInstanceOf(InvalidConfigurationException.class);
        assertThat(rejected.code()).as("SQL0134, as a @ConsumerGroup observer of it at deployment")
                .isEqualTo(Code.SQL0134);
        assertThat(rejected).hasMessage("SQL0134 payload " + Unversioned.class.getName() + " has no @SchemaVersion;"
                + " annotate the class with @SchemaVersion(n), n at least 1");
        assertThat(probe.groupFootprint()).isEqualTo(footprint);
    }

    @Test
    void registeringOnAnUnregisteredStreamIsStreamNotFound() throws SQLException {
        registeredStream("decl.exists");
        List<Long> footprint = probe.groupFootprint();

        Code rejected = refusal(() -> client.stream("decl.absent", Numbered.class).consumer("orphan").register());

        assertThat(rejected).isEqualTo(Code.SQL0005);
        assertThat(probe.groupFootprint()).isEqualTo(footprint);
    }

    // ---- helpers ----

    /** A declaration of the group's message defaults: a timeout and a retry budget, nothing else. */
    private static ConsumerConfig messageDefaults(Duration timeout, int maxRetries) {
        return ConsumerConfig.builder().message(MessageOptions.builder().timeout(timeout)
                .retry(RetryPolicy.builder().maxRetries(maxRetries).build()).build()).build();
    }

    /**
     * Both of the declaration's worker rows hold exactly {@code json} (as jsonb) and the unbounded target, and the
     * group's {@code cursor_advancer} row, which no declaration writes, keeps the empty document and target 1.
     */
    private void assertStoredDocument(long groupId, String json) throws SQLException {
        List<List<String>> rows = probe.workers(groupId);
        assertThat(rows).extracting(row -> row.get(0)).containsExactlyElementsOf(GroupProbe.ALL_WORKER_NAMES);
        assertThat(probe.sameJson(rows.get(0).get(1), "{}")).as("cursor_advancer metadata %s", rows.get(0).get(1))
                .isTrue();
        assertThat(rows.get(0).get(2)).as("cursor_advancer target_instances").isEqualTo("1");
        List<List<String>> workers = rows.subList(1, rows.size());
        assertThat(workers).extracting(row -> row.get(0)).containsExactlyElementsOf(GroupProbe.WORKER_NAMES);
        for (List<String> worker : workers) {
            assertThat(probe.sameJson(worker.get(1), json)).as("metadata of %s is %s, expected %s", worker.get(0),
                    worker.get(1), json).isTrue();
            assertThat(worker.get(2)).as("target_instances of %s", worker.get(0)).isEqualTo("-1");
        }
    }

    /** [id, name, updated_at] of the group's worker rows, with their metadata: the row state a no-op keeps. */
    private List<List<String>> workerState(long groupId) throws SQLException {
        return probe.table("SELECT id::text, name, updated_at::text, metadata::text, target_instances::text"
                + " FROM {s}.worker_config WHERE consumer_group_id = ? ORDER BY name", groupId);
    }

    /**
     * Exactly one SQL0059 line for the redeclaration (not one per worker row), naming the group and only
     * {@code changes}, the changed paths of the stored document with {@code old -> new}.
     */
    private static void assertReplacedOnce(RecordingLogger recorded, String group, String stream, String changes) {
        assertThat(recorded.withCode(WORKER_CONFIG_REPLACED)).containsExactly(WORKER_CONFIG_REPLACED
                + " consumer group \"" + group + "\" on stream \"" + stream + "\" worker config replaced by a"
                + " differing declaration: " + changes);
    }

    /** The code {@code verb} fails with; fails the test when it does not throw a {@link SqlStreamsException}. */
    private static Code refusal(ThrowingCallable verb) {
        SqlStreamsException refused = catchThrowableOfType(SqlStreamsException.class, verb);
        assertThat(refused).as("expected a SqlStreamsException").isNotNull();
        return refused.code();
    }
}
