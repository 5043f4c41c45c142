package io.sqlstreams.engine.janitor;

import static io.sqlstreams.engine.produce.LogRows.messages;
import static io.sqlstreams.engine.produce.LogRows.partitionExists;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.JanitorConfig;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.VacuumConfig;
import io.sqlstreams.testing.PostgresTest;

/**
 * The janitor's pass against a real log: rows are made old by moving their {@code created_at} back, never by
 * waiting. Streams have partitions of 10 ids, so 35 messages fill partitions 0 to 2 and reach into 3, the active
 * one.
 */
@PostgresTest
class StreamJanitorTest extends JanitorTestBase {
    /** A grace period that keeps the partial sweep out of the tests of whole-partition drops. */
    private static final JanitorConfig DROPS_ONLY = new JanitorConfig(null, null, null, Duration.ofDays(1));

    private JanitorPass pass(Stream stream, JanitorConfig config) {
        return client.janitor().pass(stream, config);
    }

    private long count(Stream stream, String table, String where) throws SQLException {
        return sql.count("SELECT count(*) FROM {s}." + table + "_" + stream.id() + " WHERE " + where);
    }

    /** An exception row, a delivery-log row and a compaction head for message {@code id}. */
    private void dependentsOf(Stream stream, long id) throws SQLException {
        sql.update("INSERT INTO {s}.exception_queue_" + stream.id() + " (consumer_group_id, message_id, status,"
                + " concurrency) VALUES (1, ?, 'dead', 'parallel')", id);
        sql.update("INSERT INTO {s}.delivery_log_" + stream.id() + " (consumer_group_id, message_id, attempt, error)"
                + " VALUES (1, ?, 0, 'failed')", id);
        sql.update("INSERT INTO {s}.compaction_head_" + stream.id() + " (compaction_key, message_id, schema_version,"
                + " compaction_rank) VALUES (?, ?, 1, 0)", "key-" + id, id);
    }

    private long dependents(Stream stream, long id) throws SQLException {
        String ofMessage = "message_id = " + id;
        return count(stream, "exception_queue", ofMessage) + count(stream, "delivery_log", ofMessage)
                + count(stream, "compaction_head", "message_id = " + id);
    }

    private void registerGroup(Stream stream, String group) {
        client.stream(stream.name(), Entry.class).consumer(group).register();
    }

    private void commitGroupsThrough(Stream stream, long id) throws SQLException {
        sql.update("UPDATE {s}.consumer_group_cursor_" + stream.id() + " SET claimed = ?, committed = ?", id, id);
    }

    private void commitGroupThrough(Stream stream, String group, long id) throws SQLException {
        sql.update("UPDATE {s}.consumer_group_cursor_" + stream.id() + " SET committed = ? WHERE consumer_group_id ="
                + " (SELECT id FROM {s}.consumer_group_config WHERE stream_id = ? AND name = ?)", id, stream.id(),
                group);
    }

    @Test
    void expiredPartitionsBelowTheActiveOneGoWithTheirRowsInOnePass() throws SQLException {
        Stream stream = stream("janitor.drop", tenPerPartition());
        produce(stream, 35);
        age(stream, 1, 19, Duration.ofHours(2));
        age(stream, 30, 35, Duration.ofHours(2));
        for (long id : List.of(5L, 15L, 25L, 32L)) {
            dependentsOf(stream, id);
        }

        JanitorPass pass = pass(stream, DROPS_ONLY);

        StepReport drop = pass.step(JanitorStep.DROP_EXPIRED_PARTITIONS);
        assertThat(pass.failed()).as("%s", pass).isFalse();
        assertThat(drop.count()).isEqualTo(2);
        assertThat(partitionExists(database, stream.id(), 0)).isFalse();
        assertThat(partitionExists(database, stream.id(), 1)).isFalse();
        assertThat(partitionExists(database, stream.id(), 2)).as("its newest message is fresh").isTrue();
        assertThat(partitionExists(database, stream.id(), 3)).as("the active partition, however old").isTrue();
        assertThat(messages(database, stream.id())).isEqualTo(16);
        assertThat(dependents(stream, 5)).isZero();
        assertThat(dependents(stream, 15)).isZero();
        assertThat(dependents(stream, 25)).isEqualTo(3);
        assertThat(dependents(stream, 32)).isEqualTo(3);
        assertThat(pass.step(JanitorStep.SWEEP_EXPIRED_MESSAGES).count()).as("inside the grace period").isZero();
    }

    @Test
    void theSlowestGroupsCommittedCursorHoldsDropsBack() throws SQLException {
        Stream stream = stream("janitor.floor", tenPerPartition());
        produce(stream, 35);
        age(stream, 1, 35, Duration.ofHours(2));
        registerGroup(stream, "fast");
        registerGroup(stream, "slow");

        assertThat(pass(stream, DROPS_ONLY).step(JanitorStep.DROP_EXPIRED_PARTITIONS).count())
                .as("no group has committed anything").isZero();
        assertThat(partitionExists(database, stream.id(), 0)).isTrue();

        commitGroupsThrough(stream, 35);
        commitGroupThrough(stream, "slow", 19);
        JanitorPass pass = pass(stream, DROPS_ONLY);

        assertThat(pass.step(JanitorStep.DROP_EXPIRED_PARTITIONS).count()).isEqualTo(2);
        assertThat(partitionExists(database, stream.id(), 1)).isFalse();
        assertThat(partitionExists(database, stream.id(), 2)).as("ids up to 29, the slow group is at 19").isTrue();
    }

    @Test
    void allowDropPastCommittedDropsWhatNoGroupHasCommitted() throws SQLException {
        Stream stream = stream("janitor.past", tenPerPartition().allowDropPastCommitted(true));
        produce(stream, 35);
        age(stream, 1, 35, Duration.ofHours(2));
        registerGroup(stream, "idle");

        JanitorPass pass = pass(stream, DROPS_ONLY);

        assertThat(pass.step(JanitorStep.DROP_EXPIRED_PARTITIONS).count()).isEqualTo(3);
        assertThat(messages(database, stream.id())).isEqualTo(6);
    }

    /**
     * Issue 45 item 4: partitions left empty by ids that were drawn and never committed (here producing
     * transactions that rolled back) go with their expired neighbours once every group has committed past them.
     * A partition holding a retained message, one holding a message the slow group has not committed, an empty one
     * above that group's cursor and the active one stay. Ids: 1-9 kept in partition 0, 10-19 spent, 20-29 kept,
     * 30-39 spent, 40-49 kept (fresh), 50-59 spent, 60-69 kept, 70-79 spent, 80-84 kept (the active partition).
     */
    @Test
    void emptyPartitionsBelowRetentionAndEveryCursorAreDroppedToo() throws SQLException {
        Stream stream = stream("janitor.empty", tenPerPartition());
        createPartitionsThrough(stream, 89);
        registerGroup(stream, "fast");
        registerGroup(stream, "slow");
        Producer<Entry> producer = producer(stream.name(), Entry.class);
        for (int partition = 0; partition <= 8; partition++) {
            int count = partition == 0 ? 9 : partition == 8 ? 5 : 10;
            if (partition % 2 == 0) {
                producer.produceBatch(IntStream.range(0, count).mapToObj(n -> ProduceItem.of(new Entry(n))).toList());
            } else {
                spendIds(producer, count);
            }
        }
        assertThat(sql.strings("SELECT string_agg(id::text, ',' ORDER BY id) FROM {s}.message_log_" + stream.id()
                + " GROUP BY id / 10 ORDER BY id / 10")).as("the layout the test means").containsExactly(
                "1,2,3,4,5,6,7,8,9", "20,21,22,23,24,25,26,27,28,29", "40,41,42,43,44,45,46,47,48,49",
                "60,61,62,63,64,65,66,67,68,69", "80,81,82,83,84");
        age(stream, 1, 39, Duration.ofHours(2));
        age(stream, 60, 84, Duration.ofHours(2));
        commitGroupsThrough(stream, 84);
        commitGroupThrough(stream, "slow", 65);

        JanitorPass pass = pass(stream, DROPS_ONLY);

        assertThat(pass.failed()).as("%s", pass).isFalse();
        assertThat(pass.step(JanitorStep.DROP_EXPIRED_PARTITIONS).count()).isEqualTo(5);
        assertThat(partitions(stream)).as("4 retained, 6 unread by the slow group, 7 above its cursor, 8 active,"
                + " 9 created ahead").containsExactly("4", "6", "7", "8", "9");
        assertThat(messages(database, stream.id())).isEqualTo(25);
    }

    /** Draws {@code count} ids in a producing transaction that rolls back: the ids are spent, no message stays. */
    private void spendIds(Producer<Entry> producer, int count) throws SQLException {
        try (Connection connection = database.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            for (int n = 0; n < count; n++) {
                producer.produce(connection, new Entry(n), ProduceOptions.none());
            }
            connection.rollback();
        }
    }

    /** The numbers of the stream's log partitions, ascending. */
    private List<String> partitions(Stream stream) throws SQLException {
        return sql.strings("SELECT n FROM (SELECT substring(c.relname FROM '_([0-9]+)$') AS n FROM pg_inherits i"
                + " JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = to_regclass(?)) p ORDER BY n::bigint",
                database.schema() + ".message_log_" + stream.id());
    }

    @Test
    void retentionZeroKeepsEverything() throws SQLException {
        Stream stream = stream("janitor.forever", StreamConfig.builder().partitionSize(10L));
        produce(stream, 35);
        age(stream, 1, 35, Duration.ofDays(3650));

        JanitorPass pass = pass(stream, JanitorConfig.defaults());

        assertThat(pass.failed()).isFalse();
        assertThat(pass.step(JanitorStep.DROP_EXPIRED_PARTITIONS).count()).isZero();
        assertThat(pass.step(JanitorStep.SWEEP_EXPIRED_MESSAGES).count()).isZero();
        assertThat(messages(database, stream.id())).isEqualTo(35);
        assertThat(partitionExists(database, stream.id(), 0)).isTrue();
    }

    @Test
    void thePartialSweepRemovesAnExpiredTailInBatches() throws SQLException {
        Stream stream = stream("janitor.tail", StreamConfig.builder().partitionSize(1000L).retentionTtl(HOUR));
        produce(stream, 9);
        age(stream, 1, 7, Duration.ofHours(2));
        dependentsOf(stream, 3);
        dependentsOf(stream, 8);
        recordDeletesPerStatement(stream);

        JanitorPass pass = pass(stream, new JanitorConfig(null, 2, null, null));

        assertThat(pass.step(JanitorStep.SWEEP_EXPIRED_MESSAGES).count()).isEqualTo(7);
        assertThat(sql.strings("SELECT deleted FROM {s}.deletes_" + stream.id() + " WHERE deleted > 0 ORDER BY n"))
                .as("one delete per batch of at most two").containsExactly("2", "2", "2", "1");
        assertThat(sql.strings("SELECT id FROM {s}.message_log_" + stream.id() + " ORDER BY id"))
                .containsExactly("8", "9");
        assertThat(dependents(stream, 3)).isZero();
        assertThat(dependents(stream, 8)).isEqualTo(3);
        assertThat(pass.step(JanitorStep.DROP_EXPIRED_PARTITIONS).count()).isZero();
    }

    /** Notes how many messages each DELETE statement on the stream's log removes, in {@code deletes_<id>}. */
    private void recordDeletesPerStatement(Stream stream) throws SQLException {
        String schema = database.schema();
        database.execute("CREATE TABLE " + schema + ".deletes_" + stream.id()
                + " (n BIGSERIAL PRIMARY KEY, deleted BIGINT NOT NULL)");
        database.execute("CREATE FUNCTION " + schema + ".note_deletes_" + stream.id() + "() RETURNS trigger"
                + " LANGUAGE plpgsql AS $$ BEGIN INSERT INTO " + schema + ".deletes_" + stream.id()
                + " (deleted) SELECT count(*) FROM gone; RETURN NULL; END $$");
        database.execute("CREATE TRIGGER note_deletes AFTER DELETE ON " + schema + ".message_log_" + stream.id()
                + " REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION " + schema + ".note_deletes_"
                + stream.id() + "()");
    }

    @Test
    void thePartialSweepWaitsOutTheGracePeriodAndStaysAtTheCommittedFloor() throws SQLException {
        Stream stream = stream("janitor.tail.floor", StreamConfig.builder().partitionSize(1000L).retentionTtl(HOUR));
        produce(stream, 9);
        age(stream, 1, 9, Duration.ofHours(2));
        registerGroup(stream, "reader");
        commitGroupsThrough(stream, 4);

        assertThat(pass(stream, new JanitorConfig(null, null, null, Duration.ofHours(2)))
                .step(JanitorStep.SWEEP_EXPIRED_MESSAGES).count()).as("2 h old, retention + grace is 3 h").isZero();
        JanitorPass pass = pass(stream, new JanitorConfig(null, null, null, Duration.ofMinutes(30)));

        assertThat(pass.step(JanitorStep.SWEEP_EXPIRED_MESSAGES).count()).isEqualTo(4);
        assertThat(messages(database, stream.id())).isEqualTo(5);
    }

    @Test
    void anIdempotencyClaimPastItsTtlIsSweptAndItsKeyProducesAgain() throws SQLException {
        Stream stream = stream("janitor.claims", StreamConfig.builder().idempotencyKeyTtl(HOUR));
        Producer<Entry> producer = producer(stream.name(), Entry.class);
        ProduceOptions order1 = ProduceOptions.builder().idempotencyKey("order-1").build();
        ProduceResult first = producer.produce(new Entry(1), order1);
        producer.produce(new Entry(2), ProduceOptions.builder().idempotencyKey("order-2").build());
        assertThat(producer.produce(new Entry(1), order1).duplicate()).isTrue();
        sql.update("UPDATE {s}.idempotency_key_" + stream.id() + " SET created_at = now() - interval '61 minutes'"
                + " WHERE created_at = (SELECT min(created_at) FROM {s}.idempotency_key_" + stream.id() + ")");

        JanitorPass pass = pass(stream, JanitorConfig.defaults());

        assertThat(pass.step(JanitorStep.SWEEP_IDEMPOTENCY_KEYS).count()).isEqualTo(1);
        assertThat(count(stream, "idempotency_key", "true")).as("order-2's claim is live").isEqualTo(1);
        ProduceResult again = producer.produce(new Entry(1), order1);
        assertThat(again.duplicate()).isFalse();
        assertThat(again.id()).isGreaterThan(first.id());
    }

    @Test
    void expiredEmptyCompactionHeadsAndExpiredKeyLeasesGoLiveOnesStay() throws SQLException {
        Stream stream = stream("janitor.heads", StreamConfig.builder().emptyCompactionHeadTtl(HOUR));
        produce(stream, 1);
        String heads = "{s}.compaction_head_" + stream.id();
        sql.update("INSERT INTO " + heads + " (compaction_key, updated_at) VALUES ('idle', now() - interval '2 hours'),"
                + " ('recent', now() - interval '10 minutes')");
        sql.update("INSERT INTO " + heads + " (compaction_key, message_id, schema_version, compaction_rank, updated_at)"
                + " VALUES ('headed', 1, 1, 0, now() - interval '30 days')");
        String leases = "{s}.message_key_lease_" + stream.id();
        sql.update("INSERT INTO " + leases + " (consumer_group_id, message_key, token, expires_at) VALUES"
                + " (1, 'crashed', gen_random_uuid(), now() - interval '1 second'),"
                + " (1, 'running', gen_random_uuid(), now() + interval '1 minute')");

        JanitorPass pass = pass(stream, JanitorConfig.defaults());

        assertThat(pass.step(JanitorStep.SWEEP_EMPTY_COMPACTION_HEADS).count()).isEqualTo(1);
        assertThat(pass.step(JanitorStep.SWEEP_EXPIRED_KEY_LEASES).count()).isEqualTo(1);
        assertThat(sql.strings("SELECT compaction_key FROM " + heads + " ORDER BY 1"))
                .containsExactly("headed", "recent");
        assertThat(sql.strings("SELECT message_key FROM " + leases)).containsExactly("running");
    }

    @Test
    void createAheadMakesTheNextPartitionOnce() throws SQLException {
        Stream stream = stream("janitor.ahead", tenPerPartition());
        produce(stream, 3);
        assertThat(partitionExists(database, stream.id(), 1)).isFalse();

        assertThat(pass(stream, JanitorConfig.defaults()).step(JanitorStep.CREATE_AHEAD).count()).isEqualTo(1);
        assertThat(partitionExists(database, stream.id(), 1)).isTrue();
        assertThat(pass(stream, JanitorConfig.defaults()).step(JanitorStep.CREATE_AHEAD).count()).isZero();
    }

    /**
     * A transaction still inserting into partition 0 (its lock stands in for a slow producer) keeps the drop from
     * judging it: that step fails with its code within the cleanup timeout, the others run, and the next pass
     * after the insert ends drops the partition.
     */
    @Test
    void aStepThatCannotGetItsLockFailsAlone() throws SQLException {
        Stream stream = stream("janitor.locked", tenPerPartition().idempotencyKeyTtl(HOUR));
        produce(stream, 25);
        age(stream, 1, 19, Duration.ofHours(2));
        sql.update("UPDATE {s}.idempotency_key_" + stream.id() + " SET created_at = now() - interval '2 hours'");
        JanitorConfig quick = new JanitorConfig(null, null, Duration.ofSeconds(1), Duration.ofDays(1));

        JanitorPass blocked;
        try (Connection holder = database.dataSource().getConnection(); Statement lock = holder.createStatement()) {
            holder.setAutoCommit(false);
            lock.execute("LOCK TABLE " + database.schema() + ".message_log_" + stream.id()
                    + "_0 IN ROW EXCLUSIVE MODE");
            blocked = pass(stream, quick);
            holder.rollback();
        }

        StepReport drop = blocked.step(JanitorStep.DROP_EXPIRED_PARTITIONS);
        assertThat(drop.done()).isFalse();
        assertThat(drop.failure().code()).isEqualTo(Code.SQL0110);
        assertThat(drop.failure().isTransient()).isTrue();
        assertThat(drop.took()).isLessThan(Duration.ofSeconds(3));
        assertThat(blocked.failed()).isTrue();
        assertThat(blocked.steps()).filteredOn(step -> step.step() != JanitorStep.DROP_EXPIRED_PARTITIONS)
                .allMatch(StepReport::done);
        assertThat(blocked.step(JanitorStep.SWEEP_IDEMPOTENCY_KEYS).count()).as("the batch's claim").isEqualTo(1);
        assertThat(logger.withCode("SQL0139")).singleElement().asString()
                .contains("janitor.locked", "drop_expired_partitions", "SQL0110");
        assertThat(partitionExists(database, stream.id(), 0)).isTrue();

        JanitorPass released = pass(stream, quick);

        assertThat(released.failed()).isFalse();
        assertThat(released.step(JanitorStep.DROP_EXPIRED_PARTITIONS).count()).isEqualTo(2);
        assertThat(partitionExists(database, stream.id(), 0)).isFalse();
    }

    @Test
    void vacuumAnalysesTheIdempotencyClaims() throws SQLException {
        Stream stream = stream("janitor.vacuum", StreamConfig.builder());
        produce(stream, 5);
        String table = "idempotency_key_" + stream.id();
        String vacuums = "SELECT vacuum_count + analyze_count FROM pg_stat_user_tables"
                + " WHERE schemaname = ? AND relname = ?";
        long before = sql.count(vacuums, database.schema(), table);

        VacuumPass vacuum = client.janitor().vacuum(stream, VacuumConfig.defaults());

        assertThat(vacuum.done()).as("%s", vacuum).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> sql.count(vacuums, database.schema(), table) >= before + 2);
    }
}
