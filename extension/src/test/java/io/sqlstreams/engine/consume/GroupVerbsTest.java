package io.sqlstreams.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.Code;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.ConsumerInspection;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.DestroyOptions;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.Outcome;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.Worker;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;

/**
 * A consumer group's {@code inspect} and {@code destroy} against a real PostgreSQL (digest §3.4–3.6): both layers
 * of the declaration, the cursor and delivery state through a session with a dead-lettered message, and destroy's
 * guards (SQL0008, SQL0015, SQL0016), its forced form and its not-found errors (SQL0014, SQL0005).
 */
@PostgresTest
class GroupVerbsTest extends GroupTestBase {
    /** What {@link #groupRowCounts} counts, in order. */
    private static final String ROW_KINDS = "group, cursor, workers, worker config log, worker instances,"
            + " exception rows, delivery log rows, range leases, key leases";
    private static final RetryPolicy LIBRARY_RETRY = new RetryPolicy(3, null, Duration.ofSeconds(1),
            Duration.ofMinutes(5), 2);

    // ---- inspect ----

    @Test
    void inspectOfAnUndeclaredGroupResolvesTheLibraryDefaults() throws SQLException {
        ConsumerHandle<Numbered> handle = streamWith("verbs.inspect-defaults", 3).consumer("plain");
        handle.register();

        ConsumerInspection inspection = handle.inspect();

        assertThat(inspection.consumer()).isEqualTo(handle.get().orElseThrow());
        assertThat(probe.sameJson(inspection.declared(), "{}")).as("declared %s", inspection.declared()).isTrue();
        assertThat(inspection.declaredConfig()).isEqualTo(ConsumerConfig.defaults());
        assertThat(inspection.effectiveMessage()).isEqualTo(new MessageOptions(null, Duration.ofSeconds(30),
                LIBRARY_RETRY, null));
        assertThat(inspection.effectiveMax()).isEqualTo(new MessageOptions(null, Duration.ofSeconds(30),
                LIBRARY_RETRY, null));
        assertCursorState(inspection, 3, 0, 0, 0, Map.of());
        assertThat(inspection.lag()).isEqualTo(3);
        assertThat(inspection.dead()).isZero();
    }

    @Test
    void inspectShowsTheDeclaredDocumentBesideTheEffectiveValues() throws SQLException {
        ConsumerConfig declared = ConsumerConfig.builder()
                .message(MessageOptions.builder().timeout(Duration.ofSeconds(10))
                        .retry(RetryPolicy.builder().maxRetries(5).build()).build())
                .messageMax(MessageOptions.builder().timeout(Duration.ofSeconds(20)).build())
                .maxRangeReclaims(7)
                .build();
        ConsumerHandle<Numbered> handle = registeredGroup("verbs.inspect-declared", "declared", declared);

        ConsumerInspection inspection = handle.inspect();

        assertThat(probe.sameJson(inspection.declared(), "{\"message\": {\"timeout\": \"10s\", \"retry\":"
                + " {\"max_retries\": 5}}, \"message_max\": {\"timeout\": \"20s\"}, \"max_range_reclaims\": 7}"))
                .as("declared %s", inspection.declared()).isTrue();
        Worker messageConsumer = handle.workers().stream().filter(worker -> worker.name().equals("message_consumer"))
                .findFirst().orElseThrow();
        assertThat(probe.sameJson(inspection.declared(), messageConsumer.metadata()))
                .as("inspect shows the stored document").isTrue();
        assertThat(inspection.declaredConfig()).isEqualTo(declared);
        RetryPolicy fiveRetries = new RetryPolicy(5, null, Duration.ofSeconds(1), Duration.ofMinutes(5), 2);
        assertThat(inspection.effectiveMessage()).isEqualTo(new MessageOptions(null, Duration.ofSeconds(10),
                fiveRetries, null));
        assertThat(inspection.effectiveMax()).isEqualTo(new MessageOptions(null, Duration.ofSeconds(20),
                fiveRetries, null));
        assertCursorState(inspection, 0, 0, 0, 0, Map.of());
    }

    @Test
    void inspectFollowsASessionThroughATerminalFailureToZeroLag() throws Exception {
        ConsumerHandle<Numbered> handle = streamWith("verbs.inspect-session", 5).consumer("followed");

        HeldSession held = holdingLast(handle, 5);
        try {
            await().atMost(WAIT).untilAsserted(() ->
                    assertCursorState(handle.inspect(), 5, 5, 4, 1, Map.of("dead", 1L)));
            assertThat(handle.inspect().lag()).isEqualTo(1);
        } finally {
            held.close();
        }

        await().atMost(WAIT).untilAsserted(() -> assertThat(handle.inspect().lag()).isZero());
        ConsumerInspection stopped = handle.inspect();
        assertCursorState(stopped, 5, 5, 5, 0, Map.of("dead", 1L));
        assertThat(stopped.dead()).isEqualTo(1);
    }

    // ---- destroy ----

    @Test
    void destroyNeedsAllowDestroy() {
        ConsumerHandle<Numbered> handle = registeredGroup("verbs.destroy-disabled", "protected");
        EngineClient cautious = EngineClient.create(database.dataSource(), ClientConfig.builder()
                .schema(database.schema()).logger(new RecordingLogger()).build(), EngineEnvironment.standalone());

        assertRefused(() -> cautious.stream("verbs.destroy-disabled", Numbered.class).consumer("protected")
                .destroy(DestroyOptions.forced()), Code.SQL0008);
        assertRefused(() -> cautious.stream("verbs.destroy-disabled", Numbered.class).consumer("protected")
                .checkDestroy(DestroyOptions.forced()), Code.SQL0008);

        assertThat(handle.get()).isPresent();
    }

    @Test
    void destroyIsRefusedWhileASessionRuns() throws Exception {
        StreamHandle<Numbered> stream = registeredStream("verbs.destroy-live");
        long streamId = streamId(stream);
        ConsumerHandle<Numbered> handle = stream.consumer("busy");
        try (ConsumerSession session = started(handle.register().start(message -> { },
                ConsumeFixtures.fastSession().build()))) {
            long groupId = groupId(handle);
            await("the session holds its two liveness rows and the group's cursor_advancer").atMost(WAIT)
                    .until(() -> groupRowCounts(streamId, groupId).get(4) == 3);
            List<Long> before = groupRowCounts(streamId, groupId);

            assertRefused(() -> handle.destroy(DestroyOptions.guarded()), Code.SQL0015);
            assertRefused(() -> handle.checkDestroy(DestroyOptions.guarded()), Code.SQL0015);
            handle.checkDestroy(DestroyOptions.forced());

            assertThat(groupRowCounts(streamId, groupId)).as("checks delete nothing").isEqualTo(before);
            assertThat(before.subList(0, 3)).as("group, cursor, workers").containsExactly(1L, 1L, 3L);
            assertThat(session.isRunning()).isTrue();
        }
    }

    @Test
    void destroyIsRefusedWhileADeadRowRemains() throws Exception {
        StreamHandle<Numbered> stream = streamWith("verbs.destroy-dead", 2);
        long streamId = streamId(stream);
        ConsumerHandle<Numbered> handle = stream.consumer("haunted");
        try (ConsumerSession session = started(handle.register().start(message -> {
            if (message.n() == 1) {
                throw Outcome.terminal("one is poison");
            }
        }, ConsumeFixtures.fastSession().build()))) {
            await().atMost(WAIT).until(() -> session.counters().dead() == 1 && session.counters().success() == 1);
        }
        long groupId = groupId(handle);
        List<Long> before = groupRowCounts(streamId, groupId);

        assertRefused(() -> handle.destroy(DestroyOptions.guarded()), Code.SQL0016);
        assertRefused(() -> handle.checkDestroy(DestroyOptions.guarded()), Code.SQL0016);
        handle.checkDestroy(DestroyOptions.forced());

        assertThat(groupRowCounts(streamId, groupId)).as("checks delete nothing").isEqualTo(before);
        assertThat(probe.count("SELECT count(*) FROM {s}.exception_queue_" + streamId
                + " WHERE consumer_group_id = ? AND status = 'dead'", groupId)).isEqualTo(1);
    }

    @Test
    void aGuardedDestroyOfASettledGroupDeletesItsRowsAndAudit() throws Exception {
        StreamHandle<Numbered> stream = streamWith("verbs.destroy-settled", 2);
        long streamId = streamId(stream);
        ConsumerHandle<Numbered> handle = stream.consumer("settled");
        AtomicInteger firstRuns = new AtomicInteger();
        try (ConsumerSession session = started(handle.register(ConsumeFixtures.quickRetries(3, Duration.ofSeconds(5)))
                .start(message -> {
                    if (message.n() == 1 && firstRuns.incrementAndGet() == 1) {
                        throw new IllegalStateException("fails once");
                    }
                }, ConsumeFixtures.fastSession().build()))) {
            await().atMost(WAIT).until(() -> session.counters().success() == 2);
        }
        long groupId = groupId(handle);
        assertThat(groupRowCounts(streamId, groupId)).as(ROW_KINDS)
                .containsExactly(1L, 1L, 3L, 3L, 0L, 0L, 1L, 0L, 0L);
        probe.update("INSERT INTO {s}.worker_instance (worker_id, expires_at) SELECT id, now() - interval"
                + " '1 minute' FROM {s}.worker_config WHERE consumer_group_id = ? AND name = 'message_consumer'",
                groupId);
        assertThat(handle.workers()).as("an expired instance row of a crashed process is not live")
                .extracting(Worker::liveInstances).containsOnly(0);

        handle.checkDestroy(DestroyOptions.guarded());
        assertThat(handle.get()).as("a passed check deletes nothing").isPresent();
        handle.destroy(DestroyOptions.guarded());

        assertThat(handle.get()).isEmpty();
        assertThat(groupRowCounts(streamId, groupId)).containsOnly(0L);
        assertThat(probe.count("SELECT count(*) FROM {s}.message_log_" + streamId)).isEqualTo(2);
    }

    @Test
    void forcedDestroyDeletesEveryRowOfTheGroupButKeepsTheStream() throws Exception {
        StreamHandle<Numbered> stream = streamWith("verbs.destroy-forced", 3);
        long streamId = streamId(stream);
        ConsumerHandle<Numbered> doomed = stream.consumer("doomed");
        ConsumerHandle<Numbered> kept = stream.consumer("kept");
        kept.register();
        long keptId = groupId(kept);
        HeldSession held = holdingLast(doomed, 3);
        try {
            long doomedId = groupId(doomed);
            String workerIds = probe.text("SELECT string_agg(id::text, ',') FROM {s}.worker_config"
                    + " WHERE consumer_group_id = ?", doomedId);
            holdKeyLease(streamId, doomedId);
            holdKeyLease(streamId, keptId);
            await().atMost(WAIT).untilAsserted(() -> assertThat(groupRowCounts(streamId, doomedId)).as(ROW_KINDS)
                    .containsExactly(1L, 1L, 3L, 3L, 3L, 1L, 1L, 1L, 1L));
            List<Long> keptBefore = groupRowCounts(streamId, keptId);

            doomed.destroy(DestroyOptions.forced());

            assertThat(doomed.get()).isEmpty();
            assertThat(groupRowCounts(streamId, doomedId)).containsOnly(0L);
            assertThat(probe.count("SELECT count(*) FROM {s}.worker_config_log WHERE worker_id::text"
                    + " = ANY (string_to_array(?, ','))", workerIds)).as("config log of the deleted workers").isZero();
            assertThat(groupRowCounts(streamId, keptId)).as("another group of the stream").isEqualTo(keptBefore);
            assertThat(stream.get()).isPresent();
            assertThat(probe.count("SELECT count(*) FROM {s}.message_log_" + streamId)).isEqualTo(3);
            assertThat(stream.consumers()).extracting(io.sqlstreams.Consumer::name).containsExactly("kept");

            held.release();
            await("a running instance stops when its group's rows vanish").atMost(WAIT)
                    .until(() -> !held.session().isRunning());
            assertThat(held.session().failure()).get().isInstanceOfSatisfying(SqlStreamsException.class, failure ->
                    assertThat(failure.code()).isIn(Code.SQL0012, Code.SQL0014));
            assertThat(groupRowCounts(streamId, doomedId)).as("the stopped session wrote nothing back")
                    .containsOnly(0L);
        } finally {
            held.close();
        }
    }

    @Test
    void destroyOfAnUnknownGroupOrStreamIsNotFound() {
        StreamHandle<Numbered> stream = registeredStream("verbs.destroy-unknown");

        assertRefused(() -> stream.consumer("never-registered").destroy(DestroyOptions.forced()), Code.SQL0014);
        assertRefused(() -> client.stream("verbs.no-such-stream", Numbered.class).consumer("any")
                .destroy(DestroyOptions.forced()), Code.SQL0005);
        assertRefused(() -> stream.consumer("never-registered").checkDestroy(DestroyOptions.forced()), Code.SQL0014);
        assertRefused(() -> client.stream("verbs.no-such-stream", Numbered.class).consumer("any")
                .checkDestroy(DestroyOptions.forced()), Code.SQL0005);
    }

    // ---- helpers ----

    /** A registered stream holding messages 1 … {@code messages}. */
    private StreamHandle<Numbered> streamWith(String name, int messages) {
        StreamHandle<Numbered> stream = registeredStream(name);
        ConsumeFixtures.produceNumbered(stream, messages);
        return stream;
    }

    private static long streamId(StreamHandle<?> stream) {
        return stream.get().orElseThrow().id();
    }

    /** Single-message ranges, so a held message keeps exactly one range lease; short polls; room in the queue. */
    private static ConsumeOptions oneMessageRanges() {
        return ConsumeFixtures.fastSession().batchLimit(1).queueMargin(Duration.ofSeconds(5)).build();
    }

    /**
     * Dead-letters message 2 at once ({@link Outcome#terminal}), holds message {@code last} until {@code release}
     * (counting down {@code holding} when it starts), and succeeds on everything else.
     */
    private static MessageHandler<Numbered> poisonTwoAndHoldLast(long last, CountDownLatch holding,
                                                                 CountDownLatch release) {
        return message -> {
            if (message.n() == 2) {
                throw Outcome.terminal("two is poison");
            }
            if (message.n() == last) {
                holding.countDown();
                if (!release.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("never released");
                }
            }
        };
    }

    /** A running session of {@link #poisonTwoAndHoldLast}; closing it releases the held message first. */
    private record HeldSession(ConsumerSession session, CountDownLatch released) implements AutoCloseable {
        /** Lets the held message finish. */
        void release() {
            released.countDown();
        }

        @Override
        public void close() {
            release();
            session.close();
        }
    }

    /**
     * Registers the group with its defaults and starts a session of {@link #poisonTwoAndHoldLast} on
     * {@link #oneMessageRanges}; returns once it is holding message {@code last}.
     */
    private static HeldSession holdingLast(ConsumerHandle<Numbered> handle, long last) throws InterruptedException {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        HeldSession held = new HeldSession(started(handle.register()
                .start(poisonTwoAndHoldLast(last, holding, release), oneMessageRanges())), release);
        try {
            assertThat(holding.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("message %d held", last).isTrue();
            return held;
        } catch (InterruptedException | RuntimeException | Error failure) {
            held.close();
            throw failure;
        }
    }

    private static void assertCursorState(ConsumerInspection inspection, long head, long claimed, long committed,
                                          int openLeases, Map<String, Long> exceptions) {
        assertThat(inspection.head()).as("head").isEqualTo(head);
        assertThat(inspection.claimed()).as("claimed").isEqualTo(claimed);
        assertThat(inspection.committed()).as("committed").isEqualTo(committed);
        assertThat(inspection.openLeases()).as("open leases").isEqualTo(openLeases);
        assertThat(inspection.exceptions()).as("exception rows by status").isEqualTo(exceptions);
    }

    /** A message key lease for the group, as an exclusive delivery would hold. */
    private void holdKeyLease(long streamId, long groupId) throws SQLException {
        probe.update("INSERT INTO {s}.message_key_lease_" + streamId + " (consumer_group_id, message_key, token,"
                + " expires_at) VALUES (?, 'key-1', gen_random_uuid(), now() + interval '1 hour')", groupId);
    }

    /** The group's rows everywhere destroy must reach, counted in the order of {@link #ROW_KINDS}. */
    private List<Long> groupRowCounts(long streamId, long groupId) throws SQLException {
        return List.of(
                probe.count("SELECT count(*) FROM {s}.consumer_group_config WHERE id = ?", groupId),
                probe.groupRows("consumer_group_cursor", streamId, groupId),
                probe.count("SELECT count(*) FROM {s}.worker_config WHERE consumer_group_id = ?", groupId),
                probe.count("SELECT count(*) FROM {s}.worker_config_log l JOIN {s}.worker_config w"
                        + " ON w.id = l.worker_id WHERE w.consumer_group_id = ?", groupId),
                probe.count("SELECT count(*) FROM {s}.worker_instance i JOIN {s}.worker_config w"
                        + " ON w.id = i.worker_id WHERE w.consumer_group_id = ?", groupId),
                probe.groupRows("exception_queue", streamId, groupId),
                probe.groupRows("delivery_log", streamId, groupId),
                probe.groupRows("claim_lease", streamId, groupId),
                probe.groupRows("message_key_lease", streamId, groupId));
    }

    private static void assertRefused(Runnable verb, Code code) {
        SqlStreamsException refused = catchThrowableOfType(SqlStreamsException.class, verb::run);
        assertThat(refused).as("expected %s", code).isNotNull();
        assertThat(refused.code()).as("code of %s", refused.getMessage()).isEqualTo(code);
    }
}
