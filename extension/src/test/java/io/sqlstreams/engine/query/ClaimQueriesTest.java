package io.sqlstreams.engine.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import io.sqlstreams.CompactionOptions;
import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.engine.sql.Transactions;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.Sql;

/**
 * The claim family's statements run directly: a range leased through the fence is read and quarantined by the
 * same deliverable-row rule, and a range record writes its outcome record's rows only while its token holds.
 */
@PostgresTest
class ClaimQueriesTest extends EngineTestBase {
    private static final Duration LEASE = Duration.ofMinutes(1);

    @SchemaVersion(1)
    public record Item(String label) {
    }

    private ClaimQueries queries;
    private Sql tables;
    private StreamHandle<Item> stream;
    private GroupIds group;

    @BeforeEach
    void registerRoutedGroup(TestInfo test) {
        queries = new ClaimQueries(new io.sqlstreams.engine.sql.Sql(database.schema()));
        tables = new Sql(database);
        stream = client.stream("claims." + test.getTestMethod().orElseThrow().getName(), Item.class);
        stream.register();
        stream.consumer("orders").register(ConsumerConfig.builder().bindings(List.of("orders.*")).build());
        group = new GroupIds(stream.get().orElseThrow().id(), stream.consumer("orders").get().orElseThrow().id());
    }

    @Test
    void readAndQuarantineOfARangeKeepTheSameDeliverableRows() throws SQLException {
        List<Long> deliverable = new ArrayList<>();
        try (Producer<Item> producer = stream.producer().register()) {
            deliverable.add(producer.produce(new Item("routed"), routed("orders.a")).id());
            producer.produce(new Item("other route"), routed("billing.a"));
            producer.produce(new Item("no route"));
            producer.produce(new Item("superseded"), compacted("orders.b", "k"));
            deliverable.add(producer.produce(new Item("head"), compacted("orders.c", "k")).id());
            deliverable.add(producer.produce(new Item("routed again"), routed("orders.d")).id());
        }
        Leased leased = leaseEverything();

        try (Connection connection = database.dataSource().getConnection()) {
            assertThat(queries.readRange(connection, group, 1, leased.low(), leased.high()))
                    .extracting(ClaimQueries.LogRow::id).containsExactlyElementsOf(deliverable);
            assertThat(queries.readRange(connection, group, 2, leased.low(), leased.high()))
                    .as("another payload version").isEmpty();
            assertThat(queries.quarantine(connection, group, leased.token(), 1, DeliveryLogMode.ALL))
                    .isEqualTo(deliverable.size());
        }
        assertThat(tables.table("SELECT message_id, status, attempts FROM {s}.exception_queue_" + group.streamId()
                + " ORDER BY message_id")).containsExactlyElementsOf(deliverable.stream()
                .map(id -> List.of(id.toString(), "ready", "0")).toList());
        assertThat(tables.table("SELECT message_id, status FROM {s}.delivery_log_" + group.streamId()
                + " ORDER BY message_id")).containsExactlyElementsOf(deliverable.stream()
                .map(id -> List.of(id.toString(), "failure")).toList());
        assertThat(tables.count("SELECT count(*) FROM {s}.claim_lease_" + group.streamId())).isZero();
    }

    @Test
    void aRangeRecordWritesItsOutcomesOnlyUnderItsLiveToken() throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (Producer<Item> producer = stream.producer().register()) {
            for (String route : List.of("orders.ok", "orders.retry", "orders.dead")) {
                ids.add(producer.produce(new Item(route), routed(route)).id());
            }
        }
        Leased leased = leaseEverything();
        ClaimQueries.RangeRecord record = new ClaimQueries.RangeRecord(leased.token(), null, List.of(
                outcome(ids.get(0), null, null, DeliveryLogStatus.SUCCESS),
                outcome(ids.get(1), ExceptionStatus.READY, "boom", DeliveryLogStatus.FAILURE),
                outcome(ids.get(2), ExceptionStatus.DEAD, "hopeless", DeliveryLogStatus.FAILURE)),
                DeliveryLogMode.FAILURES);

        try (Connection connection = database.dataSource().getConnection()) {
            assertThat(queries.recordRange(connection, group, record))
                    .isEqualTo(new ClaimQueries.Recorded(true, 2, 0));
            assertThat(queries.recordRange(connection, group, record)).as("the token is spent")
                    .isEqualTo(new ClaimQueries.Recorded(false, 0, 0));
        }
        assertThat(tables.table("SELECT message_id, status, last_error FROM {s}.exception_queue_" + group.streamId()
                + " ORDER BY message_id")).extracting(row -> tuple(row.get(0), row.get(1), row.get(2)))
                .containsExactly(tuple(ids.get(1).toString(), "ready", "boom"),
                        tuple(ids.get(2).toString(), "dead", "hopeless"));
        assertThat(tables.strings("SELECT status FROM {s}.delivery_log_" + group.streamId() + " ORDER BY message_id"))
                .as("the success is not logged under FAILURES").containsExactly("failure", "failure");
        assertThat(tables.count("SELECT count(*) FROM {s}.claim_lease_" + group.streamId())).isZero();
    }

    /** Observes, then leases everything produced in one claim transaction, as the fresh claimer does. */
    private Leased leaseEverything() throws SQLException {
        try (Connection connection = database.dataSource().getConnection()) {
            ClaimQueries.Observation observed = queries.observe(connection, group).orElseThrow();
            return Transactions.run(connection, tx -> {
                ClaimQueries.LockedCursor cursor = queries.lockCursor(tx, group, observed.xid()).orElseThrow();
                assertThat(cursor.observedFencePassed()).as("no producer is still running").isTrue();
                String token = queries.advanceAndLease(tx, group, new ClaimQueries.Advance(cursor.claimed(),
                        observed.head(), observed.head(), cursor.pendingFencePassed(), observed.head(), observed.xid(),
                        LEASE)).orElseThrow();
                return new Leased(token, cursor.claimed(), observed.head());
            });
        }
    }

    private static ClaimQueries.OutcomeRow outcome(long id, ExceptionStatus status, String error,
                                                   DeliveryLogStatus logged) {
        return new ClaimQueries.OutcomeRow(id, null, Concurrency.PARALLEL, status, 0, Duration.ZERO, error, logged);
    }

    private static ProduceOptions routed(String routingKey) {
        return ProduceOptions.builder().routingKey(routingKey).build();
    }

    private static ProduceOptions compacted(String routingKey, String key) {
        return ProduceOptions.builder().routingKey(routingKey).messageKey(key)
                .compaction(CompactionOptions.enabled()).build();
    }

    private record Leased(String token, long low, long high) {
    }
}
