package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.ConsumeFixtures.fastSession;
import static io.sqlstreams.engine.consume.ConsumeFixtures.quickRetries;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.testing.PostgresTest;

/**
 * The snapshot fence under out-of-order commits: message ids are drawn when a producer inserts, so a later id
 * can commit before an earlier one. The reference once lost 57 of 960,000 messages by claiming past ids whose
 * transactions were still open, and once rolled back an empty claim; these tests keep a ledger of committed and
 * rolled-back ids and check every committed id reaches a handler and nothing else does.
 */
@PostgresTest
class DeliveryFenceTest extends DeliveryTestBase {
    private static final int PRODUCERS = 8;
    private static final Duration PRODUCING = Duration.ofSeconds(10);
    private static final Duration MAX_STALL = Duration.ofSeconds(2);
    private static final ConsumerConfig DECLARATION = quickRetries(3, Duration.ofSeconds(5));


    @Test
    void outOfOrderCommitsAndRollbacksLoseNothingAndInventNothing() throws Exception {
        StreamHandle<Numbered> stream = client.stream("fence", Numbered.class);
        stream.register();
        startSessions("fence", "fence.g", 3);
        DeliveryTables tables = DeliveryTables.of(database, stream, "fence.g");

        ProducerRun run = produceConcurrently(stream, tables, PRODUCING);
        long last = Collections.max(run.committed());
        await().atMost(Duration.ofSeconds(60)).until(() -> tables.cursor().committed() >= last);

        Set<Long> handled = ledger.handled();
        Set<Long> lost = new TreeSet<>(run.committed());
        lost.removeAll(handled);
        Set<Long> handledRolledBack = new TreeSet<>(run.rolledBack());
        handledRolledBack.retainAll(handled);
        Set<Long> invented = new TreeSet<>(handled);
        invented.removeAll(run.committed());
        System.out.println("DeliveryFenceTest ledger: committed=" + run.committed().size() + " rolled_back="
                + run.rolledBack().size() + " handled=" + handled.size() + " lost=" + lost.size() + " duplicates="
                + ledger.duplicates().size() + " max_id=" + last);
        assertThat(run.committed()).hasSizeGreaterThan(1000);
        assertThat(run.rolledBack()).isNotEmpty();
        assertThat(lost).as("committed messages never handled (lost)").isEmpty();
        assertThat(handledRolledBack).as("rolled-back messages handled").isEmpty();
        assertThat(invented).as("handled ids that were never committed").isEmpty();
        assertThat(ledger.duplicates()).as("duplicates (expected 0: no crash, no timeout); start-guard misses %s",
                logger.withCode("SQL0105")).isEmpty();
        assertThat(tables.ids(1)).as("message log = committed ledger").containsExactlyInAnyOrderElementsOf(run.committed());
        assertThat(tables.exceptions()).isEmpty();
        assertThat(tables.leases()).isEmpty();
    }

    /**
     * Liveness under the same load: while producer transactions keep overlapping, the group must keep moving.
     * A claim poll that finds nothing provable stores its own, newest observation (pending_xid only ever grows)
     * and the next poll follows 2 ms later, so the stored observation is never older than the producers'
     * transactions and its fence may never pass while they overlap. The bound is loose (a transaction here lasts
     * at most ~35 ms): the claimed cursor may not stand still for {@link #MAX_STALL} or longer while new
     * messages keep committing.
     */
    @Test
    void theGroupKeepsClaimingWhileProducerTransactionsOverlap() throws Exception {
        StreamHandle<Numbered> stream = client.stream("fence.live", Numbered.class);
        stream.register();
        startSessions("fence.live", "fence.live.g", 3);
        DeliveryTables tables = DeliveryTables.of(database, stream, "fence.live.g");

        ProducerRun run = produceConcurrently(stream, tables, Duration.ofSeconds(6));

        Duration longestStall = Duration.ZERO;
        Duration movedAt = Duration.ZERO;
        long claimed = 0;
        for (Sample sample : run.samples()) {
            if (!sample.producing()) {
                break;
            }
            if (sample.claimed() != claimed) {
                claimed = sample.claimed();
                movedAt = sample.elapsed();
            }
            Duration stall = sample.elapsed().minus(movedAt);
            longestStall = stall.compareTo(longestStall) > 0 ? stall : longestStall;
        }
        long last = Collections.max(run.committed());
        await().atMost(Duration.ofSeconds(60)).until(() -> tables.cursor().committed() >= last);
        assertThat(ledger.handled()).containsAll(run.committed());
        assertThat(longestStall).as("longest time the claimed cursor stood still while messages kept committing;"
                + " samples: %s", run.samples()).isLessThan(MAX_STALL);
    }

    @Test
    void anEmptyClaimStoresItsObservationAndTheHeldMessageArrivesOnceCommitted() throws Exception {
        StreamHandle<Numbered> stream = client.stream("fence.empty", Numbered.class);
        stream.register();
        startSessions("fence.empty", "fence.empty.g", 1);
        DeliveryTables tables = DeliveryTables.of(database, stream, "fence.empty.g");

        try (Producer<Numbered> producer = stream.producer().register();
             Connection open = database.dataSource().getConnection()) {
            open.setAutoCommit(false);
            long held = producer.produce(open, new Numbered(1), ProduceOptions.none()).id();
            long visible = producer.produce(new Numbered(2)).id();
            assertThat(visible).isGreaterThan(held);

            DeliveryTables.Cursor cursor = await().atMost(Duration.ofSeconds(10)).pollInterval(10, TimeUnit.MILLISECONDS)
                    .until(tables::cursor, observed -> observed.pendingHead() >= visible && observed.pendingXid() != null);

            assertThat(cursor.pendingHead()).as("stored observation head").isEqualTo(visible);
            assertThat(cursor.claimed()).as("claimed stays below the id whose transaction is open").isLessThan(held);
            assertThat(cursor.settledHead()).isLessThan(held);
            assertThat(tables.leases()).isEmpty();
            assertThat(ledger.handled()).as("nothing delivered past an open producer transaction").isEmpty();
            open.commit();

            await().atMost(Duration.ofSeconds(10)).until(() -> tables.cursor().committed() >= visible);
            ledger.assertEachSucceededOnce(List.of(held, visible));
        }
    }

    private void startSessions(String streamName, String group, int count) {
        for (int i = 0; i < count; i++) {
            EngineClient own = EngineFixtures.client(database, logger);
            ConsumerSession session = own.stream(streamName, Numbered.class).consumer(group).register(DECLARATION)
                    .start(ledger.succeeding(), fastSession().batchLimit(16).queueMargin(Duration.ofSeconds(5)).build());
            sessions.add(session);
        }
    }

    /** A sample of the group's cursor while producing. */
    record Sample(boolean producing, Duration elapsed, int committedIds, long maxCommitted, long claimed, long committedCursor,
                  long pendingHead, String pendingXid) {
        @Override
        public String toString() {
            return String.format("%st=%.1fs committed_ids=%d max_committed=%d claimed=%d committed=%d pending_head=%d"
                    + " pending_xid=%s", producing ? "" : "(stopped) ", elapsed.toMillis() / 1000.0, committedIds, maxCommitted, claimed,
                    committedCursor, pendingHead, pendingXid);
        }
    }

    /** What a concurrent producer run committed and rolled back, with cursor samples taken while it ran. */
    record ProducerRun(Set<Long> committed, Set<Long> rolledBack, List<Sample> samples) {
    }

    /**
     * {@value #PRODUCERS} producer threads for {@code duration}, each on its own connection in its own
     * transactions; the group's cursor is sampled every 500 ms while they run, and once more as they stop.
     */
    private ProducerRun produceConcurrently(StreamHandle<Numbered> stream, DeliveryTables tables, Duration duration)
            throws Exception {
        Set<Long> committed = ConcurrentHashMap.newKeySet();
        Set<Long> rolledBack = ConcurrentHashMap.newKeySet();
        AtomicLong payloads = new AtomicLong();
        List<Sample> samples = new ArrayList<>();
        try (Producer<Numbered> producer = stream.producer().register()) {
            ExecutorService pool = Executors.newFixedThreadPool(PRODUCERS);
            long started = System.nanoTime();
            long until = started + duration.toNanos();
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < PRODUCERS; i++) {
                running.add(pool.submit(() -> {
                    produceInOwnTransactions(producer, until, payloads, committed, rolledBack);
                    return null;
                }));
            }
            pool.shutdown();
            boolean done = false;
            while (!done) {
                done = pool.awaitTermination(500, TimeUnit.MILLISECONDS);
                DeliveryTables.Cursor cursor = tables.cursor();
                samples.add(new Sample(!done, Duration.ofNanos(System.nanoTime() - started), committed.size(),
                        committed.stream().mapToLong(Long::longValue).max().orElse(0), cursor.claimed(),
                        cursor.committed(), cursor.pendingHead(), cursor.pendingXid()));
            }
            for (Future<?> producerThread : running) {
                producerThread.get();
            }
        }
        System.out.println("DeliveryFenceTest " + stream.name() + " while producing: " + samples);
        return new ProducerRun(committed, rolledBack, samples);
    }

    /**
     * One producer thread: its own connection, transactions of 1–5 messages held open 0–30 ms, about one in ten
     * rolled back, until {@code until}.
     */
    private void produceInOwnTransactions(Producer<Numbered> producer, long until, AtomicLong payloads,
                                          Set<Long> committed, Set<Long> rolledBack) throws Exception {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try (Connection connection = database.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            while (System.nanoTime() < until) {
                int count = random.nextInt(1, 6);
                List<Long> ids = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    ids.add(producer.produce(connection, new Numbered(payloads.incrementAndGet()), ProduceOptions.none()).id());
                }
                Thread.sleep(random.nextInt(0, 31));
                if (random.nextInt(10) == 0) {
                    connection.rollback();
                    rolledBack.addAll(ids);
                } else {
                    connection.commit();
                    committed.addAll(ids);
                }
            }
            connection.setAutoCommit(true);
        }
    }
}
