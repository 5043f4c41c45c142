package io.sqlstreams.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

import io.sqlstreams.SqlStreams;

/**
 * What both parts of {@code bench scale} run with: the harness's context and admin client, the ledger's schema, the
 * consumer processes (each measurement uses the first few) and the producer process, all started once for the whole
 * run, so the JVMs are as warm for the last measurement as a long-running application's are.
 *
 * @param context   what the scenario runs with
 * @param admin     the harness's client: registers streams and declares groups
 * @param ledger    the schema of the ledger's tables ({@link IdTable}, {@link WorkTable})
 * @param consumers the {@link ScaleConsumerMain} processes
 * @param producer  the {@link ScaleProducerMain} process
 */
record ScaleLab(BenchContext context, SqlStreams admin, String ledger, List<ConsumerProcess> consumers,
                ConsumerProcess producer) {
    static final Duration STALL = Duration.ofSeconds(20);
    static final Duration SMOKE_STALL = Duration.ofSeconds(5);
    static final Duration FINISH_TIMEOUT = Duration.ofMinutes(2);

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    /** What runs in a lab. */
    @FunctionalInterface
    interface Work<R> {
        R run(ScaleLab lab) throws Exception;
    }

    /**
     * Starts {@code consumers} {@link ScaleConsumerMain} processes and the {@link ScaleProducerMain} process, runs
     * {@code work} in a lab over them and a throwaway schema for the ledger, then stops them. Their logs are kept
     * when the work fails, and the progress output says where.
     */
    static <R> R run(BenchContext context, int consumers, Work<R> work) throws Exception {
        Progress progress = context.progress();
        String url = context.server().jdbcUrl();
        Path logs = Files.createTempDirectory("bench-scale-");
        progress.note("starting " + consumers + " consumer processes and the producer process (logs in " + logs
                + ")");
        SqlStreams admin = ConsumeClients.one(context);
        try (ThrowawaySchema ledger = ThrowawaySchema.create(context.dataSource());
             ConsumerFleet fleet = ConsumerFleet.start(consumers, name -> ConsumerProcess.start(name,
                     ScaleConsumerMain.class, ScaleScenario.JVM, List.of(url, context.schema(), name), logs),
                     progress);
             ConsumerFleet producers = ConsumerFleet.start(1, name -> ConsumerProcess.start(ScaleProducerMain.PROCESS,
                     ScaleProducerMain.class, ScaleScenario.JVM, List.of(url, context.schema()), logs), progress)) {
            R result = work.run(new ScaleLab(context, admin, ledger.name(), fleet.processes(),
                    producers.processes().get(0)));
            fleet.stopAll(STOP_TIMEOUT);
            producers.stopAll(STOP_TIMEOUT);
            DirectoryTree.delete(logs);
            return result;
        } catch (Exception | Error e) {
            progress.note("the consumer and producer logs are kept in " + logs);
            throw e;
        }
    }

    /** How long a drain may make no progress before it is given up. */
    Duration stall() {
        return context.smoke() ? SMOKE_STALL : STALL;
    }

    /** Starts metering a measurement on {@code stream} by the first {@code consumers} consumer processes. */
    ServerCost meter(BenchStream stream, int consumers) throws SQLException {
        return ServerCost.start(context.dataSource(), context.server().jdbcUrl(), this.consumers.subList(0, consumers)
                .stream().map(ConsumerProcess::pid).toList(), List.of(producer.pid()),
                new FamilyStats(context.schema(), stream.id()).streamTable("consumer_group_cursor"));
    }
}
