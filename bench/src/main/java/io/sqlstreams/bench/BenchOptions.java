package io.sqlstreams.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The command line of {@link Bench}: {@code <scenario> [--jdbc-url URL] [--repetitions N] [--seconds S] [--smoke]
 * [--out DIR]}.
 *
 * @param scenario    the scenario's registered name
 * @param jdbcUrl     the server to measure; empty starts an embedded PostgreSQL
 * @param repetitions how often each measurement is repeated (the report gives median, min and max)
 * @param measurement how long one repetition of one measurement runs
 * @param smoke       tiny sizes, one repetition, short measurements: proves the harness works, measures nothing
 * @param out         where the results file goes
 * @param messages    {@code --messages}: messages per drain (the {@code drain} scenario); empty for its default
 * @param competitorMessages {@code --competitor-messages}: tasks per db-scheduler / JobRunr drain; empty for the
 *                    default
 * @param rates       {@code --rates}: the {@code sustained} ladder in msg/s; empty for its default
 * @param stepLength  {@code --step-seconds}: one {@code sustained} step, one {@code latency} phase; empty for the
 *                    scenario's default
 * @param pickups     {@code --pickups}: pickups after idle per poll rate (the {@code latency} scenario)
 * @param chaos       the {@code chaos} scenario's flags; its {@code --rate} is also the offered rate of
 *                    {@code retention}, {@code mvcc} and {@code failure}
 * @param phases      the phase lengths of {@code retention} and {@code mvcc}
 * @param handler     the flags of {@code handler} and {@code failure}
 * @param processes   {@code --processes}: the consumer process counts of {@code scale}; empty for its default
 */
record BenchOptions(String scenario, Optional<String> jdbcUrl, int repetitions, Duration measurement, boolean smoke,
                    Path out, OptionalLong messages, OptionalLong competitorMessages, List<Integer> rates,
                    Optional<Duration> stepLength, OptionalInt pickups, ChaosOptions chaos, PhaseOptions phases,
                    HandlerOptions handler, List<Integer> processes) {

    static final int DEFAULT_REPETITIONS = 3;
    static final Duration DEFAULT_MEASUREMENT = Duration.ofSeconds(5);
    static final Duration SMOKE_MEASUREMENT = Duration.ofSeconds(1);
    static final Path RESULTS = Path.of("bench", "results");
    static final Path SMOKE_RESULTS = Path.of("bench", "target", "bench-smoke");

    /** A command line that cannot be run; its message says why. */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    static BenchOptions parse(String[] args) throws UsageException {
        String scenario = null;
        String jdbcUrl = null;
        Integer repetitions = null;
        Duration measurement = null;
        boolean smoke = false;
        Path out = null;
        Long messages = null;
        Long competitorMessages = null;
        List<Integer> rates = List.of();
        Duration stepLength = null;
        Integer pickups = null;
        ChaosOptions chaos = ChaosOptions.none();
        PhaseOptions phases = PhaseOptions.none();
        HandlerOptions handler = HandlerOptions.none();
        List<Integer> processes = List.of();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--jdbc-url" -> jdbcUrl = value(args, ++i, arg);
                case "--repetitions" -> repetitions = positiveInt(value(args, ++i, arg), arg);
                case "--seconds" -> {
                    measurement = positiveSeconds(value(args, ++i, arg), arg);
                    phases = phases.withSeconds(measurement);
                }
                case "--smoke" -> smoke = true;
                case "--out" -> out = Path.of(value(args, ++i, arg));
                case "--messages" -> messages = (long) positiveInt(value(args, ++i, arg), arg);
                case "--competitor-messages" -> competitorMessages = (long) positiveInt(value(args, ++i, arg), arg);
                case "--rates" -> rates = ints(value(args, ++i, arg), arg, BenchOptions::positiveInt);
                case "--step-seconds" -> stepLength = positiveSeconds(value(args, ++i, arg), arg);
                case "--pickups" -> pickups = positiveInt(value(args, ++i, arg), arg);
                case "--processes" -> processes = ints(value(args, ++i, arg), arg, BenchOptions::positiveInt);
                default -> {
                    if (ChaosOptions.FLAGS.contains(arg)) {
                        chaos = chaos.with(arg, value(args, ++i, arg));
                        continue;
                    }
                    if (PhaseOptions.FLAGS.contains(arg)) {
                        phases = phases.with(arg, value(args, ++i, arg));
                        continue;
                    }
                    if (HandlerOptions.FLAGS.contains(arg)) {
                        handler = handler.with(arg, value(args, ++i, arg));
                        continue;
                    }
                    if (arg.startsWith("-") || scenario != null) {
                        throw new UsageException("unexpected argument: " + arg);
                    }
                    scenario = arg;
                }
            }
        }
        if (scenario == null) {
            throw new UsageException("name a scenario");
        }
        if (chaos.restartCommand().isPresent() && jdbcUrl == null) {
            throw new UsageException("--pg-restart-command is for a server given by --jdbc-url; the embedded one"
                    + " restarts without it");
        }
        if (jdbcUrl != null && chaos.restartCommand().isEmpty() && chaos.restarts().orElse(0) > 0) {
            throw new UsageException("--restarts needs --pg-restart-command for a server given by --jdbc-url");
        }
        return new BenchOptions(scenario, Optional.ofNullable(jdbcUrl),
                repetitions != null ? repetitions : smoke ? 1 : DEFAULT_REPETITIONS,
                measurement != null ? measurement : smoke ? SMOKE_MEASUREMENT : DEFAULT_MEASUREMENT,
                smoke, out != null ? out : repositoryRoot().resolve(smoke ? SMOKE_RESULTS : RESULTS),
                messages == null ? OptionalLong.empty() : OptionalLong.of(messages),
                competitorMessages == null ? OptionalLong.empty() : OptionalLong.of(competitorMessages), rates,
                Optional.ofNullable(stepLength), pickups == null ? OptionalInt.empty() : OptionalInt.of(pickups),
                chaos, phases, handler, processes);
    }

    static String usage(Collection<String> scenarios) {
        return String.join(System.lineSeparator(),
                "usage: Bench <scenario> [--jdbc-url URL] [--repetitions N] [--seconds S] [--smoke] [--out DIR]",
                "             [--messages N] [--competitor-messages N] [--rates R,R,…] [--step-seconds S]"
                        + " [--pickups N]",
                "  scenarios:     " + String.join(", ", scenarios),
                "  --jdbc-url     measure this server (default: an embedded PostgreSQL with fsync and"
                        + " synchronous_commit on)",
                "  --repetitions  repetitions of each measurement (default " + DEFAULT_REPETITIONS + "; smoke 1)",
                "  --seconds      seconds per repetition (default " + DEFAULT_MEASUREMENT.toSeconds() + "; smoke "
                        + SMOKE_MEASUREMENT.toSeconds() + ")",
                "  --smoke        one short repetition at tiny sizes: checks the harness, measures nothing",
                "  --out          results directory (default " + RESULTS + "; smoke " + SMOKE_RESULTS
                        + ", under the repository root)",
                "  --messages     drain: messages pre-filled and drained (default 1000000; smoke 20000);"
                        + " keys: per key count (default 100000; smoke 2000); telemetry: messages pre-filled and"
                        + " drained (default " + TelemetryScenario.DEFAULT_MESSAGES + "; smoke "
                        + TelemetryScenario.SMOKE_MESSAGES + ")",
                "  --competitor-messages  drain: no-op tasks per db-scheduler / JobRunr drain (default 50000;"
                        + " smoke 1000)",
                "  --rates        sustained: the ladder in msg/s (default 5000,10000,20000,40000; smoke 500)",
                "  --step-seconds sustained: seconds per step (default 30; smoke 3); latency: seconds per rate"
                        + " (default 20; smoke 2)",
                "  --pickups      latency: pickups after idle per claimPollRate (default 30; smoke 3)",
                "  chaos:         [--consumers N] [--rate R] [--kills N] [--storms N] [--restarts N] [--seed S]"
                        + " [--pg-restart-command CMD] [--handler plain|transactional] [--fence-holders on|off]",
                "  --consumers    consumer processes (default " + ChaosScenario.DEFAULT_CONSUMERS + "; smoke "
                        + ChaosScenario.SMOKE_CONSUMERS + "); --messages: messages produced (default "
                        + ChaosScenario.DEFAULT_MESSAGES + "; smoke " + ChaosScenario.SMOKE_MESSAGES + ")",
                "  --rate         messages produced per second (default " + ChaosScenario.DEFAULT_RATE + "; smoke "
                        + ChaosScenario.SMOKE_RATE + "); the fault window is messages / rate",
                "  --kills, --storms, --restarts  faults in the window (default one kill per "
                        + ChaosScenario.SECONDS_PER_KILL.toSeconds() + " s, at least 2; one storm per "
                        + ChaosScenario.SECONDS_PER_STORM.toSeconds() + " s and one restart per "
                        + ChaosScenario.SECONDS_PER_RESTART.toSeconds() + " s, at least 1)",
                "  --seed         seed of the message mix and the fault schedule (default: random, printed)",
                "  --pg-restart-command  with --jdbc-url: the shell command that restarts that server"
                        + " (without it a given server is not restarted)",
                "  --handler      plain (default): a MessageHandler; transactional: a TransactionalHandler that also"
                        + " writes one effect row per message in the library's transaction, checked exactly once",
                "  --fence-holders  on (default): held producer transactions (open 0-5 s, some in a savepoint,"
                        + " some prepared) and unrelated xid holders (same database, another database, prepared)"
                        + " run throughout; off: none",
                "  retention:     [--seconds S] [--hold-seconds S] [--rate R]: steady soak (default "
                        + RetentionScenario.DEFAULT_SOAK.toSeconds() + " s), then a held-back phase, half held by"
                        + " an idle group and half released (default " + RetentionScenario.DEFAULT_HOLD.toSeconds()
                        + " s); offered msg/s (default " + RetentionScenario.DEFAULT_RATE + ")",
                "  mvcc:          [--before S] [--during S] [--after S] [--rate R] [--horizon xid|snapshot]"
                        + " [--holder same-database|other-database|prepared|producer]: phases"
                        + " around an open REPEATABLE READ transaction (default " + MvccScenario.DEFAULT_BEFORE
                        .toSeconds() + ", " + MvccScenario.DEFAULT_DURING.toSeconds() + ", "
                        + MvccScenario.DEFAULT_AFTER.toSeconds() + " s); offered msg/s (default "
                        + MvccScenario.DEFAULT_RATE + "); what that transaction takes: a transaction id (default) or"
                        + " only its snapshot; where it runs: an unrelated one in the measured database (default),"
                        + " in another database, prepared and left behind, or one that produced into the stream",
                "  fence:         [--step-seconds S] [--pickups N]: pickups after idle (default "
                        + FenceScenario.DEFAULT_PICKUPS + "; smoke " + FenceScenario.SMOKE_PICKUPS + ") alone and while"
                        + " an unrelated transaction is open (same database, another database, prepared); commit →"
                        + " handler at " + FenceScenario.RATE + " msg/s for S seconds (default "
                        + FenceScenario.DEFAULT_PHASE.toSeconds() + ") alone and beside a transactional group of"
                        + " another stream holding " + FenceScenario.RANGE_WORK.toMillis() + " ms ranges",
                "  handler:       [--handler-ms MS,MS,…] [--concurrency C,C,…] [--messages N]: handler times (default "
                        + HandlerScenario.HANDLER_MILLIS + "), messageConcurrency (default "
                        + HandlerScenario.CONCURRENCY + "), most messages per cell (default "
                        + HandlerScenario.DEFAULT_MESSAGES + "; smoke " + HandlerScenario.SMOKE_MESSAGES + ");"
                        + " --seconds: a cell's length at its bound",
                "  failure:       [--rate R] [--step-seconds S] [--poison N]: offered msg/s (default "
                        + FailureScenario.DEFAULT_RATE + "; smoke " + FailureScenario.SMOKE_RATE + "), seconds per"
                        + " run (default " + FailureScenario.DEFAULT_STEP.toSeconds() + "; smoke "
                        + FailureScenario.SMOKE_STEP.toSeconds() + "), poison messages per failing run (default "
                        + FailureScenario.DEFAULT_POISON + "; smoke " + FailureScenario.SMOKE_POISON + ")",
                "  scale:         [--processes P,P,…] [--messages N] [--consumers N] [--seconds S]: consumer processes"
                        + " draining one group (default " + ScaleScenario.PROCESSES + "; smoke "
                        + ScaleScenario.SMOKE_PROCESSES + "), the backlog they drain (default "
                        + ScaleScenario.DEFAULT_MESSAGES + "; smoke " + ScaleScenario.SMOKE_MESSAGES + "); the"
                        + " realistic shape's consumer processes (default " + ScaleScenario.DEFAULT_CONSUMERS
                        + "; smoke " + ScaleScenario.SMOKE_CONSUMERS + ") and seconds of producing per repetition",
                "  handler-forms: [--messages N] [--consumers N]: the keyed backlog each form's groups drain (default "
                        + HandlerFormsScenario.DEFAULT_MESSAGES + "; smoke " + HandlerFormsScenario.SMOKE_MESSAGES
                        + "), consumer processes (default " + ScaleScenario.DEFAULT_CONSUMERS + "; smoke "
                        + ScaleScenario.SMOKE_CONSUMERS + ")");
    }

    /** The nearest directory from the working directory up that holds {@code bench/pom.xml}, else the working one. */
    private static Path repositoryRoot() {
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("bench").resolve("pom.xml"))) {
                return dir;
            }
        }
        return start;
    }

    private static String value(String[] args, int index, String flag) throws UsageException {
        if (index >= args.length) {
            throw new UsageException(flag + " needs a value");
        }
        return args[index];
    }

    static int positiveInt(String text, String flag) throws UsageException {
        return atLeast(1, text, flag);
    }

    static int count(String text, String flag) throws UsageException {
        return atLeast(0, text, flag);
    }

    private static int atLeast(int least, String text, String flag) throws UsageException {
        try {
            int value = Integer.parseInt(text);
            if (value >= least) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(flag + " needs a whole number of at least " + least + ", not " + text);
    }

    /** A comma-separated list, each part read by {@code part} (such as {@link #positiveInt}). */
    static List<Integer> ints(String text, String flag, IntParser part) throws UsageException {
        List<Integer> values = new ArrayList<>();
        for (String each : text.split(",")) {
            values.add(part.parse(each.trim(), flag));
        }
        return List.copyOf(values);
    }

    /** Reads one whole number of a flag's value. */
    @FunctionalInterface
    interface IntParser {
        int parse(String text, String flag) throws UsageException;
    }

    static Duration positiveSeconds(String text, String flag) throws UsageException {
        try {
            double seconds = Double.parseDouble(text);
            if (seconds > 0 && seconds <= 86_400) {
                return Duration.ofNanos(Math.round(seconds * 1e9));
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(flag + " needs a number of seconds above 0, not " + text);
    }
}
