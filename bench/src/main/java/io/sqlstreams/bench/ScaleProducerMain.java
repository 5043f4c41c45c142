package io.sqlstreams.bench;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.StreamHandle;

/**
 * The producer process of {@code bench scale} (BENCHMARKS.md #9), started by {@link ConsumerProcess}: a client of its
 * own through the public API, kept for the whole run so its JIT is as warm for the last measurement as the consumers'
 * are. Every acknowledged id goes to an {@link IdTable}, the ledger's producing side.
 *
 * <p>Commands on stdin, one a line, run in order:
 * <ul>
 *   <li>{@code prefill <stream> <messages> [keyed] <id table>}: {@code produceBatch} of 1,000 from 4 threads
 *       ({@link LibraryPrefill}), with {@code keyed} message {@code i} keyed as {@link ScaleKeys} says, then every
 *       acknowledged id into the table; reports
 *       {@code prefilled <id table> <acknowledged> <duplicates> <seconds>};</li>
 *   <li>{@code produce <stream> <seconds> <threads> <id table>}: {@code produce()} with automatic batching from that
 *       many threads, closed loop, for that long, message {@code i} keyed as {@link ScaleKeys} says; each thread
 *       writes its acknowledged ids to the table every {@value #FLUSH} of them. Reports {@code produced <id table>
 *       <acknowledged> <duplicates> <epoch µs of the start> <epoch µs of the last return> <call p50 ms>
 *       <call p99 ms>};</li>
 *   <li>{@code stop}.</li>
 * </ul>
 * A command that fails reports {@code failed <id table> <why>}.
 *
 * <p>Arguments: JDBC URL, installation schema.
 */
public final class ScaleProducerMain {
    static final String APPLICATION_NAME = ServerActivity.APPLICATION_PREFIX + "-producer";
    static final String PROCESS = "producer";
    static final String PREFILLED = "prefilled";
    static final String PRODUCED = "produced";
    static final int FLUSH = 500;

    private ScaleProducerMain() {
    }

    public static void main(String[] args) throws Exception {
        BlockingQueue<String> commands = new LinkedBlockingQueue<>();
        HarnessLink.listen(commands::add);
        HikariConfig config = HarnessLink.pool(args[0], "scale-producer", 12, APPLICATION_NAME);
        BenchServer.DRIVER_PROPERTIES.forEach(config::addDataSourceProperty);
        HikariDataSource pool = new HikariDataSource(config);
        SqlStreams client = SqlStreams.create(pool, ClientConfig.builder().schema(args[1]).build());
        HarnessLink.report(HarnessLink.READY + " " + PROCESS);
        for (String line = commands.take(); !line.equals(HarnessLink.STOP); line = commands.take()) {
            String[] command = line.split(" ");
            IdTable ids = new IdTable(command[command.length - 1]);
            try {
                StreamHandle<BenchPayload> stream = client.stream(command[1], BenchPayload.class);
                HarnessLink.report(switch (command[0]) {
                    case "prefill" -> prefill(stream, Long.parseLong(command[2]), command[3].equals("keyed"), ids,
                            pool);
                    case "produce" -> produce(stream, BenchOptions.positiveSeconds(command[2], "seconds"),
                            Integer.parseInt(command[3]), ids, pool);
                    default -> throw new IllegalArgumentException("unknown command " + line);
                });
            } catch (Exception e) {
                HarnessLink.report(ScaleConsumerMain.FAILED + " " + ids.name() + " " + e.toString().replace('\n', ' '));
            }
        }
        HarnessLink.report(HarnessLink.STOPPED + " " + PROCESS);
        pool.close();
        System.exit(0);
    }

    private static String prefill(StreamHandle<BenchPayload> stream, long messages, boolean keyed, IdTable ids,
                                  DataSource pool) throws Exception {
        LibraryPrefill.Filled filled = LibraryPrefill.fill(stream, messages, keyed ? ScaleKeys::options : null);
        ids.append(pool, PROCESS, filled.ids());
        return String.format(Locale.ROOT, "%s %s %d %d %.3f", PREFILLED, ids.name(), filled.ids().length,
                filled.duplicates(), filled.seconds());
    }

    private static String produce(StreamHandle<BenchPayload> stream, Duration length, int threads, IdTable ids,
                                  DataSource pool) throws Exception {
        AtomicLong next = new AtomicLong();
        Workers.Outcome<CallerLog> outcome;
        long[] start = new long[1];
        try (Producer<BenchPayload> producer = stream.producer().register()) {
            Workers.Task<CallerLog> caller = startNanos -> {
                start[0] = startNanos;
                CallerLog log = new CallerLog(1 << 16, 1);
                LongList unwritten = new LongList(FLUSH);
                long deadline = startNanos + length.toNanos();
                long now;
                do {
                    long i = next.getAndIncrement();
                    long before = System.nanoTime();
                    ProduceResult result = producer.produce(BenchPayload.next(i), ScaleKeys.options(i));
                    now = System.nanoTime();
                    log.record(now - before, List.of(result));
                    if (!result.duplicate()) {
                        unwritten.add(result.id());
                    }
                    if (unwritten.size() == FLUSH) {
                        ids.append(pool, PROCESS, unwritten.toArray());
                        unwritten = new LongList(FLUSH);
                    }
                } while (now < deadline);
                ids.append(pool, PROCESS, unwritten.toArray());
                return log;
            };
            outcome = Workers.runTogether("scale-producer", length, Collections.nCopies(threads, caller));
        }
        List<CallerLog> logs = outcome.values();
        Map<Metric, Double> calls = Percentiles.of(logs.stream().map(log -> log.latencyNanos).toList());
        long startMicros = BenchClock.micros(start[0]);
        return String.format(Locale.ROOT, "%s %s %d %d %d %d %.3f %.3f", PRODUCED, ids.name(),
                logs.stream().mapToLong(log -> log.acknowledgedIds.size()).sum(),
                logs.stream().mapToLong(log -> log.duplicates).sum(), startMicros,
                startMicros + Math.round(outcome.secondsUntilLast() * 1e6), calls.get(Metric.P50),
                calls.get(Metric.P99));
    }
}
