package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.stream.LongStream;

import javax.sql.DataSource;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerBuilder;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;

/**
 * db-scheduler 16.12.0 draining {@code tasks} pre-scheduled no-op one-time tasks on the measured server: its
 * {@code scheduled_tasks} table (the project's PostgreSQL DDL) in a throwaway schema, 16 executor threads, 100 ms
 * polling, either of its polling strategies. The tasks are scheduled in one batch through its
 * {@link SchedulerClient} before the scheduler starts; the figure runs from {@code scheduler.start()} to the last
 * task's execution.
 */
final class DbSchedulerDrain {
    static final String VERSION = "16.12.0";
    static final int THREADS = 16;
    static final Duration POLLING_INTERVAL = Duration.ofMillis(100);
    private static final String TASK = "bench-noop";

    /** Which of db-scheduler's polling strategies to run. */
    enum Polling {
        FETCH_AND_LOCK_ON_EXECUTE("fetch-and-lock-on-execute (its default, limits 0.5/3.0 × threads)"),
        LOCK_AND_FETCH("lock-and-fetch (select for update skip locked, limits 0.5/1.0 × threads)");

        final String description;

        Polling(String description) {
            this.description = description;
        }
    }

    private final DataSource dataSource;

    DbSchedulerDrain(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    static String label(Polling polling, long tasks) {
        return "db-scheduler " + VERSION + ", " + THREADS + " threads, " + POLLING_INTERVAL.toMillis()
                + " ms polling, " + polling.name().toLowerCase().replace('_', '-') + ", draining "
                + String.format("%,d", tasks) + " no-op tasks (tasks/s)";
    }

    Sample drainOnce(Polling polling, long tasks) throws Exception {
        try (ThrowawaySchema schema = ThrowawaySchema.create(dataSource)) {
            String table = schema.name() + ".scheduled_tasks";
            createTable(table);
            HandledLog log = new HandledLog(tasks / THREADS * 2, false);
            OneTimeTask<Void> task = Tasks.oneTime(TASK)
                    .execute((instance, context) -> log.record(Long.parseLong(instance.getId())));
            SchedulerClient client = SchedulerClient.Builder.create(dataSource, task).tableName(table).build();
            Instant due = Instant.now().minusSeconds(1);
            client.scheduleBatch(LongStream.rangeClosed(1, tasks).mapToObj(id -> (TaskInstance<?>) task.instance(
                    Long.toString(id))), due);
            LedgerQueries.RowCount rows = count(table);
            long[] storedIds = storedIds(table, rows);
            SchedulerBuilder builder = Scheduler.create(dataSource, task).tableName(table).threads(THREADS)
                    .pollingInterval(POLLING_INTERVAL);
            builder = polling == Polling.LOCK_AND_FETCH ? builder.pollUsingLockAndFetch(0.5, 1.0)
                    : builder.pollUsingFetchAndLockOnExecute(0.5, 3.0);
            Scheduler scheduler = builder.build();
            long started = System.nanoTime();
            scheduler.start();
            boolean done;
            try {
                done = log.awaitCount(tasks, Duration.ofSeconds(tasks / 200 + 60));
            } finally {
                scheduler.stop();
            }
            if (!done) {
                throw new IllegalStateException("db-scheduler ran " + log.count() + " of " + tasks
                        + " tasks before the harness gave up");
            }
            double seconds = (log.lastNanos() - started) / 1e9;
            long left = count(table).stored();
            Ledger ledger = DeliveryLedger.of(LongStream.rangeClosed(1, tasks).toArray(), 0, rows,
                    storedIds, log.sortedIds());
            if (left > 0 && ledger.undelivered() == 0) {
                ledger = new Ledger(ledger.acknowledged(), ledger.stored(), ledger.distinct(), ledger.lost(),
                        ledger.unexpected(), ledger.duplicates(), ledger.delivered(), left);
            }
            return new Sample(Map.of(Metric.THROUGHPUT, tasks / seconds), ledger);
        }
    }

    private LedgerQueries.RowCount count(String table) throws SQLException {
        long stored = LedgerQueries.scalar(dataSource, "SELECT count(*) FROM " + table);
        long distinct = LedgerQueries.scalar(dataSource, "SELECT count(DISTINCT task_instance) FROM " + table);
        return new LedgerQueries.RowCount(stored, distinct);
    }

    /** The scheduled instances' ids (their task_instance), ascending; {@code rows} sizes the array. */
    private long[] storedIds(String table, LedgerQueries.RowCount rows) throws SQLException {
        LongList ids = new LongList((int) rows.stored());
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             ResultSet found = statement.executeQuery("SELECT task_instance::bigint FROM " + table
                     + " ORDER BY 1")) {
            while (found.next()) {
                ids.add(found.getLong(1));
            }
        }
        return ids.toArray();
    }

    private void createTable(String table) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + table + " (task_name text NOT NULL, task_instance text NOT NULL,"
                    + " task_data bytea, execution_time timestamptz NOT NULL, picked boolean NOT NULL,"
                    + " picked_by text, last_success timestamptz, last_failure timestamptz,"
                    + " consecutive_failures int, last_heartbeat timestamptz, version bigint NOT NULL,"
                    + " priority smallint, PRIMARY KEY (task_name, task_instance))");
            String bare = table.substring(table.indexOf('.') + 1);
            statement.execute("CREATE INDEX " + bare + "_execution_time_idx ON " + table + " (execution_time)");
            statement.execute("CREATE INDEX " + bare + "_last_heartbeat_idx ON " + table + " (last_heartbeat)");
            statement.execute("CREATE INDEX " + bare + "_priority_execution_time_idx ON " + table
                    + " (priority DESC, execution_time ASC)");
        }
    }
}
