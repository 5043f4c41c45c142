package io.sqlstreams.bench;

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
