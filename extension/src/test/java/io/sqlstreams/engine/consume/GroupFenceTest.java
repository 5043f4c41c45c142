package io.sqlstreams.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.GroupFence;
import io.sqlstreams.Measurement;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.testing.PostgresTest;

/**
 * A held fence is visible: {@link StreamHandle#fences()}, {@code ConsumerHandle.fence()} and the stream's
 * {@code sqlstreams.stream.fence.oldest_holder_age} gauge name the open producers that hold back a group's stored
 * observation, oldest first, and read not held once they end.
 */
@PostgresTest
class GroupFenceTest extends EngineTestBase {
    private static final String STREAM = "fence.visible";
    private static final String GROUP = "fence.visible.g";
    private static final String HOLDER_AGE = "sqlstreams.stream.fence.oldest_holder_age";
    private static final Duration RELEASED_WITHIN = Duration.ofSeconds(30);

    @Test
    void thePreparedThenTheIdleProducerAreNamedUntilEachEnds() throws Exception {
        HeldFence.assumePreparedTransactions(database.dataSource());
        StreamHandle<Numbered> stream = client.stream(STREAM, Numbered.class);
        stream.register();
        stream.consumer("never-consumed").register();
        String gid = database.schema() + "_visible";
        String preparedXid = prepareProducer(stream, gid);
        boolean prepared = true;
        try (HeldFence held = HeldFence.hold(client, database.dataSource(), STREAM, GROUP)) {
            List<GroupFence> fences = stream.fences();

            assertThat(fences).extracting(GroupFence::group).containsExactly(GROUP, "never-consumed");
            assertThat(fences.get(1)).isEqualTo(new GroupFence("never-consumed", null, 0));
            GroupFence.Holder oldest = fences.get(0).oldestHolder();
            assertThat(oldest.pid()).as("a prepared transaction has no backend").isNull();
            assertThat(oldest.xid()).isEqualTo(preparedXid);
            assertThat(oldest.state()).isEqualTo("prepared as '" + gid + "'");
            assertThat(oldest.open()).isPositive();
            assertThat(fences.get(0).moreHolders()).as("the idle producer holds it too").isEqualTo(1);
            assertThat(fences.get(0).describe()).matches("held for [0-9]+ s by no backend \\(xid " + preparedXid
                    + ", prepared as '" + gid + "'\\), 1 more holder");
            assertThat(holderAge(stream)).isPositive();

            database.execute("ROLLBACK PREPARED '" + gid + "'");
            prepared = false;
            GroupFence fence = stream.consumer(GROUP).fence();
            assertThat(fence.oldestHolder().pid()).isEqualTo(held.pid());
            assertThat(fence.oldestHolder().state()).isEqualTo("idle in transaction");
            assertThat(fence.moreHolders()).isZero();
            assertThat(fence.describe()).matches("held for [0-9]+ s by pid " + held.pid()
                    + " \\(xid [0-9]+, idle in transaction\\)");

            held.commit();
            await().atMost(RELEASED_WITHIN).until(() -> !stream.consumer(GROUP).fence().held());
            assertThat(stream.fences()).extracting(GroupFence::describe).containsExactly("not held", "not held");
            assertThat(holderAge(stream)).isZero();
        } finally {
            if (prepared) {
                database.execute("ROLLBACK PREPARED '" + gid + "'");
            }
        }
    }

    @Test
    void aMissingStreamOrGroupIsRefused() {
        client.stream(STREAM, Numbered.class).register();

        assertThatThrownBy(() -> client.stream("fence.missing", Numbered.class).fences())
                .isInstanceOfSatisfying(SqlStreamsException.class,
                        failure -> assertThat(failure.code()).isEqualTo(Code.SQL0005));
        assertThatThrownBy(() -> client.stream(STREAM, Numbered.class).consumer("nobody").fence())
                .isInstanceOfSatisfying(SqlStreamsException.class,
                        failure -> assertThat(failure.code()).isEqualTo(Code.SQL0014));
    }

    /** Produces into {@code stream} in a transaction left prepared as {@code gid}; returns its xid. */
    private String prepareProducer(StreamHandle<Numbered> stream, String gid) throws Exception {
        try (Producer<Numbered> producer = stream.producer().register();
             Connection holder = database.dataSource().getConnection();
             Statement statement = holder.createStatement()) {
            holder.setAutoCommit(false);
            producer.produce(holder, new Numbered(0), ProduceOptions.none());
            String xid;
            try (ResultSet row = statement.executeQuery("SELECT (pg_current_xact_id()::text::bigint % 4294967296)::text")) {
                row.next();
                xid = row.getString(1);
            }
            statement.execute("PREPARE TRANSACTION '" + gid + "'");
            return xid;
        }
    }

    private static double holderAge(StreamHandle<Numbered> stream) {
        return stream.metrics().snapshot().stream().filter(measurement -> measurement.name().equals(HOLDER_AGE))
                .mapToDouble(Measurement::value).findFirst().orElseThrow();
    }
}
