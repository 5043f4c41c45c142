package io.sqlstreams.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.math.BigDecimal;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/** Renders a run as Markdown (printed, and written to {@code <out>/<yyyy-MM-dd>-<scenario>.md}). */
final class ReportWriter {
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd");

    private ReportWriter() {
    }

    /** Writes the report through a temporary file, so a results file is never half-written; returns its path. */
    static Path write(RunReport report, Path directory) throws IOException {
        Files.createDirectories(directory);
        String date = DATE.format(report.startedAt().atZone(ZoneId.systemDefault()));
        Path file = directory.resolve(date + "-" + report.scenario().name() + ".md");
        Path temporary = directory.resolve(file.getFileName() + ".tmp");
        Files.writeString(temporary, render(report), StandardCharsets.UTF_8);
        return Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    static String render(RunReport report) {
        StringBuilder out = new StringBuilder();
        BenchOptions options = report.options();
        out.append("# ").append(report.scenario().name()).append(" — ").append(report.scenario().title())
                .append("\n\n");
        out.append("**Result: ").append(report.passed() ? "PASSED" : "FAILED").append("**")
                .append(report.failure().map(f -> " — the scenario failed: " + f).orElse(""))
                .append(report.ledgersPassed() ? "" : " — LEDGER CHECK FAILED")
                .append(report.invariantsPassed() ? "" : " — INVARIANT BROKEN").append("\n\n");
        String smoke = options.smoke() ? " (**smoke run**: proves the harness works, the figures mean nothing)" : "";
        if (report.baselines().isPresent()) {
            out.append("- Started ").append(report.startedAt()).append("; ").append(options.repetitions())
                    .append(options.repetitions() == 1 ? " repetition" : " repetitions").append(" of ")
                    .append(seconds(options.measurement().toMillis())).append(" per measurement").append(smoke)
                    .append(".\n");
            out.append("- Every figure is the median (min – max) over the repetitions; every percentage is of the"
                    + " same run's baseline median.\n");
        } else {
            out.append("- Started ").append(report.startedAt()).append("; one run, no raw-SQL baselines (")
                    .append(report.scenario().withoutBaselinesBecause()).append(")").append(smoke).append(".\n");
        }
        out.append("- Payload: ").append(count(BenchPayload.TARGET_BYTES)).append("-byte JSON (`BenchPayload` through"
                + " JSON-B); every commit durable.\n\n");
        environment(out, report.environment());
        report.baselines().ifPresent(baselines -> {
            out.append("## Baselines (raw SQL, no library, same run)\n\n");
            figureTable(out, baselines.all(), Map.of());
        });
        report.failure().ifPresent(failure -> out.append("## ").append(report.scenario().name())
                .append("\n\n**FAILED:** ").append(failure).append("\n\n"));
        report.result().filter(result -> !result.figures().isEmpty()).ifPresent(result -> {
            out.append("## ").append(report.scenario().name()).append("\n\n");
            figureTable(out, result.figures(), result.comparisons().stream()
                    .collect(Collectors.toMap(Comparison::subject, Function.identity())));
        });
        report.result().ifPresent(result -> result.tables().forEach(table -> series(out, table)));
        report.result().filter(result -> !result.invariants().isEmpty()).ifPresent(result -> invariants(out,
                result.invariants()));
        report.result().filter(result -> !result.notes().isEmpty()).ifPresent(result -> {
            out.append("### Notes\n\n");
            result.notes().forEach(note -> out.append("- ").append(note).append('\n'));
            out.append('\n');
        });
        ledger(out, report.figures());
        return out.toString();
    }

    private static void environment(StringBuilder out, Environment environment) {
        out.append("## Environment\n\n| | |\n|---|---|\n");
        row(out, List.of("machine", environment.machine()));
        row(out, List.of("Java", environment.java()));
        row(out, List.of("server", environment.server()));
        row(out, List.of("PostgreSQL", environment.postgres()));
        row(out, List.of("settings", environment.settings().entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", "))));
        row(out, List.of("JDBC", "HikariCP pool of " + BenchServer.POOL_SIZE + ", " + BenchServer.DRIVER_PROPERTIES
                .entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", "))));
        row(out, List.of("commit", environment.commit()));
        out.append('\n');
        if (!environment.durable()) {
            out.append("> **WARNING: commits on this server are not durable (fsync or synchronous_commit is off):"
                    + " these figures do not follow BENCHMARKS.md.**\n\n");
        }
    }

    private static void figureTable(StringBuilder out, List<Figure> figures, Map<Figure, Comparison> comparisons) {
        Set<Metric> metrics = EnumSet.noneOf(Metric.class);
        figures.forEach(figure -> metrics.addAll(figure.samples().get(0).values().keySet()));
        List<String> headings = new ArrayList<>(List.of("measurement"));
        metrics.forEach(metric -> headings.add(metric.heading()));
        if (!comparisons.isEmpty()) {
            headings.addAll(List.of("% of baseline", "baseline"));
        }
        row(out, headings);
        row(out, headings.stream().map(h -> h.equals("measurement") || h.equals("baseline") ? "---" : "---:")
                .toList());
        for (Figure figure : figures) {
            List<String> cells = new ArrayList<>(List.of(figure.label()));
            metrics.forEach(metric -> cells.add(figure.summary(metric).map(metric::format).orElse("–")));
            Comparison comparison = comparisons.get(figure);
            if (comparison != null) {
                Summary percent = comparison.percentages();
                cells.add(percent(percent.median()) + " (" + percent(percent.min()) + " – "
                        + percent(percent.max()) + ")");
                cells.add(comparison.baseline().label()
                        + (comparison.note().isEmpty() ? "" : " — " + comparison.note()));
            } else if (!comparisons.isEmpty()) {
                cells.addAll(List.of("–", "–"));
            }
            row(out, cells);
        }
        out.append('\n');
    }

    private static void series(StringBuilder out, SeriesTable table) {
        out.append("### ").append(table.title()).append("\n\n");
        row(out, table.headings().stream().map(h -> h.replace(" →", "")).toList());
        row(out, table.headings().stream().map(h -> h.endsWith(" →") ? "---:" : "---").toList());
        table.rows().forEach(cells -> row(out, cells));
        out.append('\n');
    }

    private static void invariants(StringBuilder out, List<Invariant> invariants) {
        boolean passed = invariants.stream().allMatch(Invariant::passed);
        out.append("### Invariants: ").append(passed ? "PASSED" : "**BROKEN**").append("\n\n");
        row(out, List.of("invariant", "count", "result", "meaning"));
        row(out, List.of("---", "---:", "---", "---"));
        for (Invariant invariant : invariants) {
            row(out, List.of(invariant.name(), count(invariant.count()),
                    invariant.passed() ? invariant.verdict() : "**" + invariant.verdict() + "**",
                    invariant.meaning()));
        }
        out.append('\n');
    }

    private static void ledger(StringBuilder out, List<Figure> figures) {
        List<Ledger> ledgers = figures.stream().flatMap(f -> f.samples().stream()).map(Sample::ledger)
                .filter(Ledger::reported).toList();
        boolean passed = figures.stream().allMatch(Figure::ledgersPassed);
        out.append("## Ledger\n\n**").append(passed ? "PASSED" : "FAILED").append("** over ")
                .append(ledgers.size()).append(" checks: lost = ").append(sum(ledgers, Ledger::lost))
                .append(", unexpected = ").append(sum(ledgers, Ledger::unexpected))
                .append(", undelivered = ").append(sum(ledgers, l -> l.undelivered() == null ? 0 : l.undelivered()))
                .append(", duplicates = ").append(sum(ledgers, Ledger::duplicates))
                .append(ledgers.stream().anyMatch(l -> l.violations() != null)
                        ? ", violations = " + sum(ledgers, l -> l.violations() == null ? 0 : l.violations()) : "")
                .append("\n\n");
        row(out, List.of("measurement", "rep", "acknowledged", "stored", "distinct ids", "delivered", "undelivered",
                "lost", "unexpected", "duplicates", "ok"));
        row(out, List.of("---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---"));
        for (Figure figure : figures) {
            for (int k = 0; k < figure.samples().size(); k++) {
                Ledger l = figure.samples().get(k).ledger();
                if (!l.reported()) {
                    continue;
                }
                row(out, List.of(figure.label(), String.valueOf(k + 1), count(l.acknowledged()), count(l.stored()),
                        count(l.distinct()), l.delivered() == null ? "–" : count(l.delivered()),
                        l.undelivered() == null ? "–" : count(l.undelivered()), count(l.lost()),
                        count(l.unexpected()), count(l.duplicates()), l.passed() ? "yes" : "**NO**"));
            }
        }
        out.append('\n');
    }

    private static long sum(List<Ledger> ledgers, ToLongFunction<Ledger> field) {
        return ledgers.stream().mapToLong(field).sum();
    }

    private static void row(StringBuilder out, List<String> cells) {
        out.append("| ").append(String.join(" | ", cells)).append(" |\n");
    }

    private static String count(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }

    private static String percent(double value) {
        return String.format(Locale.ROOT, "%.1f%%", value);
    }

    private static String seconds(long millis) {
        return BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString() + " s";
    }
}
