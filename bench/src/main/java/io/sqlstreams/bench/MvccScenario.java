package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import io.sqlstreams.SqlStreams;

/**
 * BENCHMARKS.md #8, its MVCC part: steady produce + consume at a fixed offered rate (one group, one session) in
 * three phases: before, during (another connection holds a REPEATABLE READ transaction that has taken a
 * transaction id, so the xmin horizon stays where it was and no dead row version anywhere can be vacuumed away),
 * and after (that transaction rolled back). Per phase: handled msg/s, e2e p50/p99 (scheduled produce call →
 * handler entry) and the group's lag at the end; every period, dead tuples and sizes of the hot tables. The
 * figure is the throughput during and after as a percentage of before.
 */
final class MvccScenario implements Scenario {
    static final int DEFAULT_RATE = 2_000;
    static final int SMOKE_RATE = 200;
    static final Duration DEFAULT_BEFORE = Duration.ofMinutes(2);
    static final Duration DEFAULT_DURING = Duration.ofMinutes(10);
    static final Duration DEFAULT_AFTER = Duration.ofMinutes(2);
    static final Duration SMOKE_PHASE = Duration.ofSeconds(3);
    static final Duration DEFAULT_PERIOD = Duration.ofSeconds(10);
    static final Duration SMOKE_PERIOD = Duration.ofSeconds(1);
    static final String GROUP = "mvcc";
    static final String BEFORE = "before";
    static final String DURING = "during";
    static final String AFTER = "after";
    /** The hot tables, as the report names them; the log's partitions are summed. */
    static final List<String> TABLES = List.of("message_log", "consumer_group_cursor", "claim_lease",
            "exception_queue", "worker_instance");

    /** One reading: each hot table's figures by name, the group's lag, messages handled so far. */
    record Reading(String phase, Map<String, FamilyStats.TableFigures> tables, long lag, long handled) {

        String describe() {
            return String.format(Locale.ROOT, "%s: handled %,d, lag %,d; dead tuples %s", phase, handled, lag,
                    tables.entrySet().stream().map(e -> e.getKey() + " " + e.getValue().deadTuples())
                            .collect(Collectors.joining(", ")));
        }
    }

    static String phaseLabel(String phase) {
        return "mvcc, phase " + phase + " (handled msg/s; e2e ms produce → handler)";
    }

    static final String WHOLE_RUN_LABEL = "mvcc, whole run (handled msg/s)";
    static final String SERIES_TITLE = "Hot tables over time (dead tuples / total relation size)";
    static final String SUMMARY_TITLE = "Hot tables per phase: most dead tuples seen, size at the phase's end";

    @Override
    public String name() {
        return "mvcc";
    }

    @Override
    public String title() {
        return "Steady load while another transaction holds the xmin horizon (BENCHMARKS.md #8, MVCC)";
    }

    @Override
    public boolean measuresBaselines() {
        return false;
    }

    @Override
    public String withoutBaselinesBecause() {
        return "the figure is throughput against this run's own phase before the horizon is held";
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        BenchOptions options = context.options();
        boolean smoke = context.smoke();
        int rate = options.chaos().rate().orElse(smoke ? SMOKE_RATE : DEFAULT_RATE);
        Duration before = options.phases().before().orElse(smoke ? SMOKE_PHASE : DEFAULT_BEFORE);
        Duration during = options.phases().during().orElse(smoke ? SMOKE_PHASE : DEFAULT_DURING);
        Duration after = options.phases().after().orElse(smoke ? SMOKE_PHASE : DEFAULT_AFTER);
        Duration period = smoke ? SMOKE_PERIOD : DEFAULT_PERIOD;
        HorizonHolder.Kind horizon = options.phases().horizon().orElse(HorizonHolder.Kind.XID);
        HorizonHolder.Place place = options.phases().holder().orElse(HorizonHolder.Place.SAME_DATABASE);
        SqlStreams admin = ConsumeClients.one(context);
        SqlStreams consumer = ConsumeClients.one(context);
        List<String> notes = new ArrayList<>();
        notes.add(String.format(Locale.ROOT, "Default stream settings; one group, one session (batchLimit %d,"
                        + " queueSize %d, messageConcurrency %d). Open-loop produce() at %,d msg/s from %d callers."
                        + " Phases: before %d s, during %d s (holder: %s (--holder %s); BEGIN ISOLATION LEVEL"
                        + " REPEATABLE READ; %s; held open), after %d s (rolled back). Hot tables read every %d s;"
                        + " dead tuples are pg_stat_user_tables.n_dead_tup as last flushed.",
                SustainedScenario.BATCH_LIMIT, 2 * SustainedScenario.BATCH_LIMIT, SteadyRun.MESSAGE_CONCURRENCY,
                rate, SustainedScenario.callers(rate), before.toSeconds(), during.toSeconds(), place.description(),
                place.flag(), horizon.statement(), after.toSeconds(), period.toSeconds()));
        String autovacuum = LedgerQueries.text(context.dataSource(), "SELECT current_setting('autovacuum')");
        try (BenchStream stream = BenchStream.register(admin, context.dataSource(), context.schema(), "mvcc")) {
            FamilyStats stats = new FamilyStats(context.schema(), stream.id());
            SteadyRun.Outcome<Reading> outcome;
            HorizonHolder[] holder = new HorizonHolder[1];
            try (SteadyRun<Reading> run = SteadyRun.start(context, consumer, stream, GROUP, rate,
                    before.plus(during).plus(after), period, (connection, phase, handled) -> read(stats, connection,
                            phase, handled), Reading::describe)) {
                run.phase(BEFORE, before, () -> { });
                run.phase(DURING, during, () -> {
                    holder[0] = HorizonHolder.open(context.server(), horizon, place, stream.handle());
                    context.progress().note("holding the xmin horizon: " + place.description() + ", "
                            + horizon.statement() + " (" + holder[0].xid() + ") open at REPEATABLE READ");
                });
                run.phase(AFTER, after, () -> {
                    holder[0].close();
                    context.progress().note("the transaction holding the horizon ended (rolled back)");
                });
                outcome = run.finish(false);
            } finally {
                if (holder[0] != null) {
                    holder[0].close();
                }
            }
            notes.add("Session counters: " + outcome.counters() + ".");
            List<Figure> figures = outcome.figures(MvccScenario::phaseLabel, WHOLE_RUN_LABEL, rate);
            Figure beforeFigure = figures.get(0);
            List<Comparison> comparisons = List.of(
                    new Comparison(figures.get(1), beforeFigure, "the same run's phase before the horizon was held"),
                    new Comparison(figures.get(2), beforeFigure, "the same run's phase before the horizon was held"));
            List<Reading> readings = outcome.readings().stream().map(PeriodicSampler.Timed::value).toList();
            notes.add(String.format(Locale.ROOT, "Throughput during the held horizon: %.1f %% of before; after it"
                            + " was released: %.1f %% (offered %,d msg/s; target ≥ 90 %%).",
                    comparisons.get(0).percentages().median(), comparisons.get(1).percentages().median(), rate));
            notes.add(String.format(Locale.ROOT, "The group's lag (head − committed) at the end of each phase: before"
                    + " %,d, during %,d, after %,d.", outcome.lagsAtEnd().get(0), outcome.lagsAtEnd().get(1),
                    outcome.lagsAtEnd().get(2)));
            if (place == HorizonHolder.Place.PRODUCER) {
                notes.add("The holder produced into the measured stream: the stream's fresh claims wait for it by"
                        + " design (its message may commit below the head), so no pickup during it is the expected"
                        + " result here; an unrelated holder must not stop the stream.");
            }
            if ("off".equals(autovacuum)) {
                notes.add("autovacuum is off on this server: dead tuples pile up in every phase; what the held"
                        + " horizon changes here is that no pruning or index-entry killing can reclaim them either.");
            }
            notes.add("Dead tuples at the end of each phase: " + List.of(BEFORE, DURING, AFTER).stream()
                    .map(phase -> phase + " " + lastOf(readings, phase).map(r -> r.tables().entrySet().stream()
                            .map(e -> e.getKey() + " " + e.getValue().deadTuples())
                            .collect(Collectors.joining(", "))).orElse("no reading"))
                    .collect(Collectors.joining("; ")) + ".");
            return new ScenarioResult(figures, comparisons, notes, List.of(),
                    List.of(series(outcome.readings()), summary(readings)));
        }
    }

    private static Reading read(FamilyStats stats, Connection connection, String phase, long handled)
            throws SQLException {
        Map<String, FamilyStats.TableFigures> tables = new LinkedHashMap<>();
        tables.put(TABLES.get(0), stats.partitions(connection).figures());
        for (String kind : TABLES.subList(1, 4)) {
            tables.put(kind, stats.table(connection, stats.streamTable(kind)));
        }
        tables.put(TABLES.get(4), stats.table(connection, stats.sharedTable(TABLES.get(4))));
        return new Reading(phase, tables, stats.lag(connection, GROUP), handled);
    }

    private static java.util.Optional<Reading> lastOf(List<Reading> readings, String phase) {
        return readings.stream().filter(r -> r.phase().equals(phase)).reduce((first, second) -> second);
    }

    private static SeriesTable series(List<PeriodicSampler.Timed<Reading>> readings) {
        List<String> headings = new ArrayList<>(List.of("t s →", "phase"));
        TABLES.forEach(table -> headings.add(table + " →"));
        headings.addAll(List.of("lag →", "handled →"));
        List<List<String>> rows = new ArrayList<>();
        for (PeriodicSampler.Timed<Reading> timed : readings) {
            Reading r = timed.value();
            List<String> cells = new ArrayList<>(List.of(String.format(Locale.ROOT, "%.0f", timed.seconds()),
                    r.phase()));
            TABLES.forEach(table -> cells.add(figures(r.tables().get(table))));
            cells.add(RetentionScenario.count(r.lag()));
            cells.add(RetentionScenario.count(r.handled()));
            rows.add(cells);
        }
        return new SeriesTable(SERIES_TITLE, headings, rows);
    }

    private static SeriesTable summary(List<Reading> readings) {
        List<List<String>> rows = new ArrayList<>();
        for (String phase : List.of(BEFORE, DURING, AFTER)) {
            List<Reading> of = readings.stream().filter(r -> r.phase().equals(phase)).toList();
            if (of.isEmpty()) {
                continue;
            }
            for (String table : TABLES) {
                long maxDead = of.stream().mapToLong(r -> r.tables().get(table).deadTuples()).max().orElseThrow();
                rows.add(List.of(phase, table, RetentionScenario.count(maxDead),
                        size(of.get(of.size() - 1).tables().get(table).bytes())));
            }
        }
        return new SeriesTable(SUMMARY_TITLE, List.of("phase", "table", "max dead tuples →", "size at end →"), rows);
    }

    private static String figures(FamilyStats.TableFigures figures) {
        return RetentionScenario.count(figures.deadTuples()) + " / " + size(figures.bytes());
    }

    private static String size(long bytes) {
        return bytes >= 1024 * 1024 ? RetentionScenario.mebibytes(bytes) : RetentionScenario.kibibytes(bytes);
    }
}
