package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

import io.sqlstreams.JanitorConfig;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.SystemConfig;
import io.sqlstreams.StreamConfig;

/**
 * The retention soak: a stream with partitionSize 1,000, retentionTtl 5 s and a janitor polling every second, under
 * steady produce + consume at a fixed offered rate with one group of one session (whose client runs the system
 * manager, the manager polling every second, which runs the stream's janitor: that is what is measured). Every
 * period it reads the log's partition count, the total size of its partitions (indexes included), the sizes of the
 * idempotency, exception and delivery-log tables, the group's lag and the messages produced and handled. The soak
 * passes its verdict when the partition count stays bounded (max over the last half ≤ max over the first half + 1)
 * and the log's size flat (after the warm-up, the last half's median within 25 % of the first half's). Then a
 * second phase: a second group, registered and never started, holds the drops back for its first half; for the
 * second half the stream is re-registered with allowDropPastCommitted, which lets them go again.
 */
final class RetentionScenario implements Scenario {
    static final long PARTITION_SIZE = 1_000;
    static final Duration RETENTION_TTL = Duration.ofSeconds(5);
    static final Duration JANITOR_POLL_RATE = Duration.ofSeconds(1);
    static final Duration MANAGER_POLL_RATE = Duration.ofSeconds(1);
    static final int DEFAULT_RATE = 1_000;
    static final int SMOKE_RATE = 200;
    static final Duration DEFAULT_SOAK = Duration.ofSeconds(120);
    static final Duration SMOKE_SOAK = Duration.ofSeconds(8);
    static final Duration DEFAULT_HOLD = Duration.ofSeconds(60);
    static final Duration SMOKE_HOLD = Duration.ofSeconds(6);
    static final Duration DEFAULT_PERIOD = Duration.ofSeconds(5);
    static final Duration SMOKE_PERIOD = Duration.ofSeconds(1);
    /** Readings before this are left out of the size verdict: the first partitions have not expired yet. */
    static final Duration WARM_UP = Duration.ofSeconds(20);
    static final double FLAT_TOLERANCE = 0.25;
    static final String GROUP = "soak";
    static final String IDLE_GROUP = "idle";
    static final String SOAK = "soak";
    static final String HELD = "held";
    static final String RELEASED = "released";

    /** One reading of the stream's tables. */
    record Reading(String phase, long partitions, long logBytes, long idempotencyBytes, long exceptionBytes,
                   long deliveryBytes, long lag, long produced, long handled) {

        String describe() {
            return String.format(Locale.ROOT, "%s: partitions %d, message_log %s, lag %,d, produced %,d,"
                    + " handled %,d", phase, partitions, mebibytes(logBytes), lag, produced, handled);
        }
    }

    static String phaseLabel(String phase) {
        return "retention, phase " + phase + " (handled msg/s; e2e ms produce → handler)";
    }

    static final String WHOLE_RUN_LABEL = "retention, whole run (handled msg/s)";
    static final String SERIES_TITLE = "Readings over time";
    static final String SUMMARY_TITLE = "Min / max / last per phase";

    @Override
    public String name() {
        return "retention";
    }

    @Override
    public String title() {
        return "Retention soak: partitions and storage under steady load";
    }

    @Override
    public boolean measuresBaselines() {
        return false;
    }

    @Override
    public String withoutBaselinesBecause() {
        return "this scenario checks that storage stays bounded, not speed";
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        BenchOptions options = context.options();
        boolean smoke = context.smoke();
        int rate = options.chaos().rate().orElse(smoke ? SMOKE_RATE : DEFAULT_RATE);
        Duration soak = options.phases().seconds().orElse(smoke ? SMOKE_SOAK : DEFAULT_SOAK);
        Duration hold = options.phases().hold().orElse(smoke ? SMOKE_HOLD : DEFAULT_HOLD);
        Duration half = hold.dividedBy(2);
        Duration period = smoke ? SMOKE_PERIOD : DEFAULT_PERIOD;
        Duration warmUp = smoke ? soak.dividedBy(4) : WARM_UP;
        StreamConfig config = StreamConfig.builder().partitionSize(PARTITION_SIZE).retentionTtl(RETENTION_TTL)
                .janitor(new JanitorConfig(JANITOR_POLL_RATE, null, null, null)).build();
        SqlStreams admin = ConsumeClients.one(context);
        SqlStreams consumer = ConsumeClients.one(context);
        List<String> notes = new ArrayList<>();
        notes.add(String.format(Locale.ROOT, "Stream: partitionSize %,d, retentionTtl %d s, janitor pollRate %d s;"
                        + " the manager's poll rate set to %d s (system register). One group (%s), one session"
                        + " (batchLimit %d, messageConcurrency %d) whose client runs the manager and so the janitor."
                        + " Open-loop produce() at %,d msg/s. Soak %d s, then %d s held back by a second group"
                        + " (%s, registered, never started), then %d s after re-registering the stream with"
                        + " allowDropPastCommitted. A reading every %d s.", PARTITION_SIZE, RETENTION_TTL.toSeconds(),
                JANITOR_POLL_RATE.toSeconds(), MANAGER_POLL_RATE.toSeconds(), GROUP, SustainedScenario.BATCH_LIMIT,
                SteadyRun.MESSAGE_CONCURRENCY, rate, soak.toSeconds(), half.toSeconds(), IDLE_GROUP,
                half.toSeconds(), period.toSeconds()));
        try (BenchStream stream = BenchStream.register(admin, context.dataSource(), context.schema(), "retention",
                config)) {
            admin.system().register(new SystemConfig(MANAGER_POLL_RATE));
            FamilyStats stats = new FamilyStats(context.schema(), stream.id());
            SteadyRun.Outcome<Reading> outcome;
            try (SteadyRun<Reading> run = SteadyRun.start(context, consumer, stream, GROUP, rate,
                    soak.plus(half).plus(half), period, (connection, phase, handled) -> read(stats, connection,
                            phase, handled), Reading::describe)) {
                run.phase(SOAK, soak, () -> { });
                run.phase(HELD, half, () -> GroupSessions.declare(admin, stream.name(), IDLE_GROUP));
                run.phase(RELEASED, half, () -> stream.handle().register(config.toBuilder()
                        .allowDropPastCommitted(true).build()));
                outcome = run.finish(true);
            }
            notes.add("Session counters: " + outcome.counters() + ".");
            notes.add("Ledger: the log drops partitions while it runs, so its \"stored\" column counts the distinct"
                    + " ids the group handled; lost = acknowledged ids no handler saw.");
            List<Reading> readings = outcome.readings().stream().map(PeriodicSampler.Timed::value).toList();
            List<PeriodicSampler.Timed<Reading>> soakReadings = outcome.readings().stream()
                    .filter(t -> t.value().phase().equals(SOAK)).toList();
            notes.addAll(verdicts(soakReadings, warmUp, readings));
            List<Figure> figures = outcome.figures(RetentionScenario::phaseLabel, WHOLE_RUN_LABEL, rate);
            return new ScenarioResult(figures, List.of(), notes, List.of(),
                    List.of(series(outcome.readings()), summary(readings)));
        }
    }

    private static Reading read(FamilyStats stats, Connection connection, String phase, long handled)
            throws SQLException {
        FamilyStats.Partitions partitions = stats.partitions(connection);
        return new Reading(phase, partitions.count(), partitions.figures().bytes(),
                stats.table(connection, stats.streamTable("idempotency_key")).bytes(),
                stats.table(connection, stats.streamTable("exception_queue")).bytes(),
                stats.table(connection, stats.streamTable("delivery_log")).bytes(),
                stats.lag(connection, GROUP), stats.head(connection), handled);
    }

    /** The soak's two verdicts and the second phase's, as report lines. */
    static List<String> verdicts(List<PeriodicSampler.Timed<Reading>> soak, Duration warmUp, List<Reading> all) {
        List<String> lines = new ArrayList<>();
        if (soak.size() < 2) {
            lines.add("Verdict: not enough soak readings (" + soak.size() + ") to judge.");
        } else {
            List<Reading> first = soak.subList(0, soak.size() / 2).stream().map(PeriodicSampler.Timed::value)
                    .toList();
            List<Reading> last = soak.subList(soak.size() / 2, soak.size()).stream()
                    .map(PeriodicSampler.Timed::value).toList();
            long firstMax = max(first, Reading::partitions);
            long lastMax = max(last, Reading::partitions);
            lines.add(String.format(Locale.ROOT, "Verdict, partition count bounded: %s (max over the last half %d,"
                    + " over the first half %d; bounded means ≤ first + 1).", lastMax <= firstMax + 1 ? "YES"
                    : "NO", lastMax, firstMax));
            List<Reading> warm = soak.stream().filter(t -> t.seconds() >= warmUp.toNanos() / 1e9)
                    .map(PeriodicSampler.Timed::value).toList();
            if (warm.size() < 2) {
                lines.add("Verdict, relation size flat: not enough readings after the " + warmUp.toSeconds()
                        + " s warm-up (" + warm.size() + ") to judge.");
            } else {
                double firstMedian = median(warm.subList(0, warm.size() / 2));
                double lastMedian = median(warm.subList(warm.size() / 2, warm.size()));
                double change = lastMedian / firstMedian - 1;
                lines.add(String.format(Locale.ROOT, "Verdict, relation size flat: %s (message_log median after the"
                                + " %d s warm-up: first half %s, last half %s, %+.1f %%; flat means within ±%.0f %%).",
                        Math.abs(change) <= FLAT_TOLERANCE ? "YES" : "NO", warmUp.toSeconds(),
                        mebibytes((long) firstMedian), mebibytes((long) lastMedian), 100 * change,
                        100 * FLAT_TOLERANCE));
            }
        }
        List<Reading> held = all.stream().filter(r -> r.phase().equals(HELD)).toList();
        List<Reading> released = all.stream().filter(r -> r.phase().equals(RELEASED)).toList();
        if (!held.isEmpty() && !released.isEmpty()) {
            long heldFirst = held.get(0).partitions();
            long heldLast = held.get(held.size() - 1).partitions();
            long releasedLast = released.get(released.size() - 1).partitions();
            lines.add(String.format(Locale.ROOT, "Held back by the idle group: partitions %d → %d (%s); released by"
                            + " allowDropPastCommitted: %d → %d (%s).", heldFirst, heldLast,
                    heldLast > heldFirst ? "growing" : "NOT growing", heldLast, releasedLast,
                    releasedLast < heldLast ? "shrinking" : "NOT shrinking"));
        }
        return lines;
    }

    private static SeriesTable series(List<PeriodicSampler.Timed<Reading>> readings) {
        List<List<String>> rows = new ArrayList<>();
        for (PeriodicSampler.Timed<Reading> timed : readings) {
            Reading r = timed.value();
            rows.add(List.of(String.format(Locale.ROOT, "%.0f", timed.seconds()), r.phase(),
                    String.valueOf(r.partitions()), mebibytes(r.logBytes()), kibibytes(r.idempotencyBytes()),
                    kibibytes(r.exceptionBytes()), kibibytes(r.deliveryBytes()), count(r.lag()), count(r.produced()),
                    count(r.handled())));
        }
        return new SeriesTable(SERIES_TITLE, List.of("t s →", "phase", "partitions →", "message_log →",
                "idempotency_key →", "exception_queue →", "delivery_log →", "lag →", "produced →", "handled →"),
                rows);
    }

    private static SeriesTable summary(List<Reading> readings) {
        List<List<String>> rows = new ArrayList<>();
        for (String phase : List.of(SOAK, HELD, RELEASED)) {
            List<Reading> of = readings.stream().filter(r -> r.phase().equals(phase)).toList();
            if (of.isEmpty()) {
                continue;
            }
            rows.add(summaryRow(phase, "partitions", of, Reading::partitions, String::valueOf));
            rows.add(summaryRow(phase, "message_log (partitions + indexes)", of, Reading::logBytes,
                    RetentionScenario::mebibytes));
            rows.add(summaryRow(phase, "idempotency_key", of, Reading::idempotencyBytes,
                    RetentionScenario::kibibytes));
            rows.add(summaryRow(phase, "exception_queue", of, Reading::exceptionBytes, RetentionScenario::kibibytes));
            rows.add(summaryRow(phase, "delivery_log", of, Reading::deliveryBytes, RetentionScenario::kibibytes));
            rows.add(summaryRow(phase, "lag (messages)", of, Reading::lag, RetentionScenario::count));
        }
        return new SeriesTable(SUMMARY_TITLE, List.of("phase", "quantity", "min →", "max →", "last →"), rows);
    }

    private static List<String> summaryRow(String phase, String quantity, List<Reading> readings,
                                           ToLongFunction<Reading> field,
                                           java.util.function.LongFunction<String> format) {
        long[] values = readings.stream().mapToLong(field).toArray();
        return List.of(phase, quantity, format.apply(Arrays.stream(values).min().orElseThrow()),
                format.apply(Arrays.stream(values).max().orElseThrow()), format.apply(values[values.length - 1]));
    }

    private static long max(List<Reading> readings, ToLongFunction<Reading> field) {
        return readings.stream().mapToLong(field).max().orElseThrow();
    }

    private static double median(List<Reading> readings) {
        return Summary.of(readings.stream().map(r -> (double) r.logBytes()).toList()).median();
    }

    static String mebibytes(long bytes) {
        return String.format(Locale.ROOT, "%.2f MiB", bytes / (1024.0 * 1024.0));
    }

    static String kibibytes(long bytes) {
        return String.format(Locale.ROOT, "%,d kiB", bytes / 1024);
    }

    static String count(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }
}
