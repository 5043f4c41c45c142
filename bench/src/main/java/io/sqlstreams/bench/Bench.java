package io.sqlstreams.bench;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.ServiceConfigurationError;

/**
 * The benchmark harness's entry point: provisions the server, measures the raw-SQL baselines, runs one scenario,
 * prints the report and writes it under {@code --out}. Exits 0 when everything ran and every ledger balanced, 1
 * when a scenario failed or a ledger did not balance, 2 for a bad command line.
 */
public final class Bench {

    private Bench() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line {@code args}; returns the exit status. */
    static int run(String... args) {
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (BenchOptions.UsageException e) {
            System.err.println(e.getMessage());
            System.err.println(BenchOptions.usage(Scenarios.names()));
            return 2;
        }
        Optional<Scenario> scenario = Scenarios.named(options.scenario());
        if (scenario.isEmpty()) {
            System.err.println("no scenario called " + options.scenario());
            System.err.println(BenchOptions.usage(Scenarios.names()));
            return 2;
        }
        Progress progress = new Progress(System.err);
        try {
            return run(options, scenario.get(), progress);
        } catch (Exception e) {
            progress.note("the run failed before its report could be written: " + e);
            e.printStackTrace();
            return 1;
        }
    }

    private static int run(BenchOptions options, Scenario scenario, Progress progress) throws Exception {
        Instant startedAt = Instant.now();
        progress.note(options.jdbcUrl().isPresent() ? "connecting to the given server"
                : "starting embedded PostgreSQL");
        try (BenchServer server = BenchServer.start(options.jdbcUrl(), options.chaos().restartCommand());
             ThrowawaySchema library = ThrowawaySchema.create(server.dataSource())) {
            Environment environment = Environment.collect(server);
            progress.note(environment.server() + ": " + environment.postgres());
            if (!environment.durable()) {
                progress.note("WARNING: commits on this server are not durable: " + environment.settings());
            }
            Repetitions repetitions = new Repetitions(options.repetitions(), progress);
            Optional<Baselines> baselines = scenario.measuresBaselines()
                    ? Optional.of(measureBaselines(server, options, repetitions)) : Optional.empty();
            Optional<ScenarioResult> result = Optional.empty();
            Optional<String> failure = Optional.empty();
            try {
                result = Optional.of(scenario.run(new BenchContext(server, library.name(),
                        options.measurement(), baselines, repetitions, options, progress)));
            } catch (Exception | ServiceConfigurationError | LinkageError e) {
                failure = Optional.of(describe(e));
                progress.note("scenario " + scenario.name() + " FAILED: " + failure.get());
                e.printStackTrace();
            }
            RunReport report = new RunReport(scenario, startedAt, options, environment, baselines, result, failure);
            System.out.print(ReportWriter.render(report));
            System.out.flush();
            Path file = ReportWriter.write(report, options.out());
            progress.note("results written to " + file.toAbsolutePath());
            if (!report.ledgersPassed()) {
                banner(progress, "LEDGER CHECK FAILED: messages were lost, unexpected or undelivered.", "Ledger",
                        file);
            }
            if (!report.invariantsPassed()) {
                banner(progress, "INVARIANT BROKEN: " + report.result().orElseThrow().invariants().stream()
                        .filter(invariant -> !invariant.passed())
                        .map(invariant -> invariant.name() + " = " + invariant.count()).toList(), "Invariants", file);
            }
            return report.passed() ? 0 : 1;
        }
    }

    private static void banner(Progress progress, String headline, String section, Path file) {
        String line = "!".repeat(78);
        progress.note(line);
        progress.note("!!! " + headline);
        progress.note("!!! See the " + section + " section of " + file.toAbsolutePath());
        progress.note(line);
    }

    /** The raw-SQL baselines, in a throwaway schema of their own. */
    private static Baselines measureBaselines(BenchServer server, BenchOptions options, Repetitions repetitions)
            throws Exception {
        try (ThrowawaySchema raw = ThrowawaySchema.create(server.dataSource())) {
            return Baselines.measure(new InsertBaseline(server.dataSource(), raw.name(), options.measurement()),
                    new CursorBaseline(server.dataSource(), raw.name(), options.measurement()), repetitions);
        }
    }

    /** The failure and its root cause, on one line. */
    private static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == failure ? failure.toString() : failure + " (root cause: " + root + ")";
    }
}
