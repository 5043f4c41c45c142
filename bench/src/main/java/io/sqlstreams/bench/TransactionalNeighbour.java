package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.sqlstreams.BatchHandler;
import io.sqlstreams.BatchItem;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.Producer;
import io.sqlstreams.SqlStreams;

/**
 * A transactional group on a stream of its own that keeps a range transaction open most of the time: its batch
 * handler writes one effect row per message on the lent connection (so the range's transaction holds a
 * transaction id) and then spends {@code rangeWork} in the database before the range commits. A producer feeds the
 * stream at {@link #RATE} msg/s, so a new range is waiting whenever one ends. Closing stops both and drops the
 * stream and the effect table; it fails when a produce of the feed failed, since the neighbour stopped then.
 */
final class TransactionalNeighbour implements AutoCloseable {
    static final int RATE = 20;
    private static final String GROUP = "neighbour";

    private final BenchContext context;
    private final BenchStream stream;
    private final String effects;
    private final Duration rangeWork;
    private final AtomicLong ranges = new AtomicLong();
    private final AtomicReference<RuntimeException> feedFailure = new AtomicReference<>();
    private final long startedNanos = System.nanoTime();
    private ScheduledExecutorService feeding;
    private Producer<BenchPayload> producer;
    private GroupSessions sessions;

    private TransactionalNeighbour(BenchContext context, BenchStream stream, String effects, Duration rangeWork) {
        this.context = context;
        this.stream = stream;
        this.effects = effects;
        this.rangeWork = rangeWork;
    }

    /** Registers the neighbour's stream and group and starts feeding and handling it through {@code client}. */
    static TransactionalNeighbour start(BenchContext context, SqlStreams client, Duration rangeWork)
            throws Exception {
        BenchStream stream = BenchStream.register(client, context.dataSource(), context.schema(), "neighbour");
        String effects = context.schema() + ".neighbour_effects_" + stream.id();
        TransactionalNeighbour neighbour = new TransactionalNeighbour(context, stream, effects, rangeWork);
        try {
            neighbour.execute("CREATE TABLE " + effects + " (message_id bigint PRIMARY KEY)");
            neighbour.sessions = GroupSessions.start(List.of(client), stream.name(), GROUP, ConsumerConfig.defaults(),
                    instance -> instance.startBatches(neighbour.handler(), ConsumeOptions.defaults()));
            neighbour.producer = stream.handle().producer().register();
            neighbour.feeding = Executors.newSingleThreadScheduledExecutor();
            AtomicLong sent = new AtomicLong();
            neighbour.feeding.scheduleAtFixedRate(() -> neighbour.feed(sent.getAndIncrement()), 0,
                    1_000_000 / RATE, TimeUnit.MICROSECONDS);
        } catch (Exception | Error e) {
            neighbour.close();
            throw e;
        }
        return neighbour;
    }

    /** What it did so far: ranges committed and how long they took on average. */
    String describe() {
        long committed = ranges.get();
        double seconds = (System.nanoTime() - startedNanos) / 1e9;
        return String.format(Locale.ROOT, "neighbour: %,d ranges committed in %.1f s (%.0f ms each on average, %d ms"
                + " of it held in the database)", committed, seconds, committed == 0 ? 0 : 1000 * seconds / committed,
                rangeWork.toMillis());
    }

    private void feed(long n) {
        try {
            producer.produce(BenchPayload.next(n));
        } catch (RuntimeException e) {
            feedFailure.compareAndSet(null, e);
            throw e;
        }
    }

    private BatchHandler<BenchPayload> handler() {
        String insert = "INSERT INTO " + effects + " (message_id) VALUES (?)";
        String work = String.format(Locale.ROOT, "SELECT pg_sleep(%.3f)", rangeWork.toMillis() / 1000.0);
        return (items, connection) -> {
            try (PreparedStatement row = connection.prepareStatement(insert)) {
                for (BatchItem<BenchPayload> item : items) {
                    row.setLong(1, item.meta().messageId());
                    row.addBatch();
                }
                row.executeBatch();
            }
            try (Statement statement = connection.createStatement()) {
                statement.execute(work);
            }
            ranges.incrementAndGet();
        };
    }

    @Override
    public void close() throws Exception {
        try {
            if (feeding != null) {
                feeding.shutdownNow();
                feeding.awaitTermination(10, TimeUnit.SECONDS);
            }
            if (producer != null) {
                producer.close();
            }
            if (sessions != null) {
                sessions.close();
            }
        } finally {
            execute("DROP TABLE IF EXISTS " + effects);
            stream.close();
        }
        if (feedFailure.get() != null) {
            throw new IllegalStateException("the neighbour's producer failed, so its ranges stopped",
                    feedFailure.get());
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = context.dataSource().getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
