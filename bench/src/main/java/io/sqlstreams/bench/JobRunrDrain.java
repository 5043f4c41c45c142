package io.sqlstreams.bench;

import java.time.Duration;
import java.util.Map;
import java.util.stream.LongStream;

import javax.sql.DataSource;

import org.jobrunr.configuration.JobRunr;
import org.jobrunr.scheduling.JobScheduler;
import org.jobrunr.server.BackgroundJobServer;
import org.jobrunr.server.BackgroundJobServerConfiguration;
import org.jobrunr.server.carbonaware.CarbonAwareJobProcessingConfiguration;
import org.jobrunr.storage.StorageProviderUtils.DatabaseOptions;
import org.jobrunr.storage.sql.postgres.PostgresStorageProvider;
import org.jobrunr.utils.mapper.jsonb.JsonbJsonMapper;

/**
 * JobRunr 8.7.0 draining {@code jobs} pre-enqueued no-op jobs ({@link NoopJob#run}) on the measured server: its
 * tables created by its own migrations under a throwaway schema (table prefix {@code <schema>.}), JSON-B as its
 * mapper (the bench's Yasson), a background job server of 16 workers polling every 5 s (the shortest poll it
 * accepts), no dashboard. The jobs are enqueued in one stream before the server starts; the figure runs from the
 * server's {@code start()} to the last job's execution.
 */
final class JobRunrDrain {
    static final String VERSION = "8.7.0";
    static final int WORKERS = 16;
    static final Duration POLL_INTERVAL = Duration.ofSeconds(5);

    private final DataSource dataSource;

    JobRunrDrain(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    static String label(long jobs) {
        return "JobRunr " + VERSION + ", " + WORKERS + " workers, " + POLL_INTERVAL.toSeconds() + " s poll, draining "
                + String.format("%,d", jobs) + " no-op jobs (jobs/s)";
    }

    Sample drainOnce(long jobs) throws Exception {
        try (ThrowawaySchema schema = ThrowawaySchema.create(dataSource)) {
            HandledLog log = new HandledLog(jobs / WORKERS * 2, false);
            NoopJob.recordInto(log);
            PostgresStorageProvider storage = new PostgresStorageProvider(dataSource, schema.name() + ".",
                    DatabaseOptions.CREATE);
            BackgroundJobServerConfiguration server = BackgroundJobServerConfiguration
                    .usingStandardBackgroundJobServerConfiguration()
                    .andWorkerCount(WORKERS)
                    .andPollInterval(POLL_INTERVAL)
                    .andCarbonAwareJobProcessingConfiguration(
                            CarbonAwareJobProcessingConfiguration.usingDisabledCarbonAwareJobProcessingConfiguration());
            JobScheduler scheduler = JobRunr.configure()
                    .useJsonMapper(new JsonbJsonMapper())
                    .useStorageProvider(storage)
                    .useBackgroundJobServer(server, false)
                    .initialize().getJobScheduler();
            try {
                scheduler.enqueue(LongStream.rangeClosed(1, jobs).boxed(), id -> NoopJob.run(id));
                String table = schema.name() + ".jobrunr_jobs";
                long enqueued = LedgerQueries.scalar(dataSource, "SELECT count(*) FROM " + table
                        + " WHERE state = 'ENQUEUED'");
                long distinct = LedgerQueries.scalar(dataSource, "SELECT count(DISTINCT id) FROM " + table
                        + " WHERE state = 'ENQUEUED'");
                BackgroundJobServer background = JobRunr.getBackgroundJobServer();
                long started = System.nanoTime();
                background.start();
                boolean done;
                try {
                    done = log.awaitCount(jobs, Duration.ofSeconds(jobs / 100 + 60));
                } finally {
                    background.stop();
                }
                if (!done) {
                    throw new IllegalStateException("JobRunr ran " + log.count() + " of " + jobs
                            + " jobs before the harness gave up");
                }
                double seconds = (log.lastNanos() - started) / 1e9;
                Ledger ledger = DeliveryLedger.ofCounts(LongStream.rangeClosed(1, jobs).toArray(),
                        new LedgerQueries.RowCount(enqueued, distinct), log.sortedIds());
                return new Sample(Map.of(Metric.THROUGHPUT, jobs / seconds), ledger);
            } finally {
                NoopJob.recordInto(null);
                JobRunr.destroy();
            }
        }
    }
}
