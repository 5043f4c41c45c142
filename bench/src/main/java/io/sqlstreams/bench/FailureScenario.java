package io.sqlstreams.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.LongStream;

import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.SqlStreams;

/**
 * BENCHMARKS.md #6, the failure path: the sustained shape (an open-loop producer at one rate, one group of two
 * sessions, a fresh stream per run) with nothing failing (the reference), then with 1 % and with 10 % of the messages
 * failing their first run and succeeding on the retry, each of those two with a fixed number of poison messages that
 * fail every run until the retry budget is spent and they are dead-lettered. Figures: handled msg/s against the
 * reference of the same run, e2e latency (scheduled send → entry of the successful run), and the dead letters,
 * which must be exactly the poison messages. All of it twice: unkeyed, and with {@value #ORDERED_KEYS} ordered keys,
 * where a failed message holds back its key's later messages and every key's successes must come in id order.
 */
final class FailureScenario implements Scenario {
    static final int DEFAULT_RATE = 2_000;
    static final int SMOKE_RATE = 200;
    static final Duration DEFAULT_STEP = Duration.ofSeconds(20);
    static final Duration SMOKE_STEP = Duration.ofSeconds(3);
    static final List<Integer> FAILING_PERCENT = List.of(0, 1, 10);
    static final int DEFAULT_POISON = 20;
    static final int SMOKE_POISON = 3;
    static final int MAX_RETRIES = 3;
    static final Duration RETRY_DELAY = Duration.ofMillis(100);
    static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(1);
    /** Short retries, so a run's retries end within seconds of its last message. */
    static final ConsumerConfig GROUP = ConsumerConfig.builder()
            .message(MessageOptions.builder().retry(RetryPolicy.builder().maxRetries(MAX_RETRIES).baseDelay(RETRY_DELAY)
                    .maxDelay(MAX_RETRY_DELAY).build()).build())
            .exceptionInitialBackoff(RETRY_DELAY).build();

    /** The ordered-keys form: message k has key k<k mod ORDERED_KEYS>, every message run under the ordered policy. */
    static final int ORDERED_KEYS = 1_024;

    static String label(boolean ordered, int percent, int poison, int rate) {
        String failing = percent == 0 ? "nothing failing (reference)"
                : percent + " % failing once + " + poison + " poison";
        return String.format(Locale.ROOT, "failure%s: %s at %,d msg/s offered (handled msg/s; e2e ms)",
                ordered ? String.format(Locale.ROOT, ", %,d ordered keys", ORDERED_KEYS) : "", failing, rate);
    }

    @Override
    public String name() {
        return "failure";
    }

    @Override
    public String title() {
        return "The failure path: retried and poison messages in the sustained shape (BENCHMARKS.md #6)";
    }

    /** What the runs' dead letters and key order add up to, for the invariants. */
    private static final class DeadTally {
        final LongAdder dead = new LongAdder();
        final LongAdder poison = new LongAdder();
        final LongAdder deadNotPoison = new LongAdder();
        final LongAdder poisonNotDead = new LongAdder();
        final LongAdder orderViolations = new LongAdder();
    }

    /** The group and produce options of one form: unkeyed, or ordered keys. */
    private record Form(boolean ordered) {
        ConsumerConfig group() {
            return ordered ? GROUP.toBuilder().concurrencyOverride(Concurrency.ORDERED).build() : GROUP;
        }

        ProduceOptions options(long k) {
            return ordered ? ProduceOptions.builder().messageKey(KeysScenario.key(k, ORDERED_KEYS)).build()
                    : ProduceOptions.none();
        }
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        BenchOptions options = context.options();
        int rate = options.chaos().rate().orElse(context.smoke() ? SMOKE_RATE : DEFAULT_RATE);
        Duration step = options.stepLength().orElse(context.smoke() ? SMOKE_STEP : DEFAULT_STEP);
        int poison = options.handler().poison().orElse(context.smoke() ? SMOKE_POISON : DEFAULT_POISON);
        long total = Math.max(1, Math.round(rate * (step.toNanos() / 1e9)));
        SqlStreams admin = ConsumeClients.one(context);
        List<SqlStreams> clients = ConsumeClients.create(context, SustainedScenario.SESSIONS);
        DeadTally tally = new DeadTally();
        List<String> notes = new ArrayList<>();
        notes.add(String.format(Locale.ROOT, "Each run on a fresh stream: %,d messages at %,d msg/s (%.0f s), produce()"
                        + " from %d callers, open-loop; %d sessions (one client each), batchLimit %d, queueSize %d,"
                        + " messageConcurrency %d. The group retries after %d ms (doubling, at most %d ms) with"
                        + " maxRetries %d. Message k fails its first run when k is a multiple of 100 / percent; the %d"
                        + " poison messages, spread evenly over the run, throw an ordinary exception on every run (no"
                        + " Outcome.terminal) until the retry budget is spent and they are dead-lettered (each"
                        + " repetition's line counts their runs). Throughput: successes from the producer's start to"
                        + " the last success, retries included.", total, rate, step.toMillis() / 1000.0,
                SustainedScenario.callers(rate), SustainedScenario.SESSIONS, SustainedScenario.BATCH_LIMIT,
                2 * SustainedScenario.BATCH_LIMIT, SustainedScenario.MESSAGE_CONCURRENCY, RETRY_DELAY.toMillis(),
                MAX_RETRY_DELAY.toMillis(), MAX_RETRIES, poison));
        long warmupTotal = Math.min(total, Math.round(rate * (Warmup.limit(context).toNanos() / 1e9)));
        notes.add(Warmup.run(context, String.format(Locale.ROOT, "the reference run cut to %,d messages", warmupTotal),
                () -> runOnce(context, admin, clients, new Form(false), FailurePlan.of(0, 0, warmupTotal), rate,
                        warmupTotal, new ArrayList<>(), new DeadTally())));
        notes.add(String.format(Locale.ROOT, "The ordered-keys form: message k has key k<k mod %,d>, the group declared"
                + " with concurrencyOverride ordered; a failed message holds its key's later messages until its retry"
                + " succeeds (or it is dead-lettered), and no success of a key may come after a success of a higher id"
                + " of that key (order violations).", ORDERED_KEYS));
        List<Figure> figures = new ArrayList<>();
        List<Comparison> comparisons = new ArrayList<>();
        for (Form form : List.of(new Form(false), new Form(true))) {
            Figure reference = null;
            for (int percent : FAILING_PERCENT) {
                FailurePlan plan = FailurePlan.of(percent, percent == 0 ? 0 : poison, total);
                List<String> details = new ArrayList<>();
                Figure figure = context.repetitions().measure(label(form.ordered(), percent, poison, rate),
                        () -> runOnce(context, admin, clients, form, plan, rate, total, details, tally));
                if (reference == null) {
                    reference = figure;
                } else {
                    comparisons.add(new Comparison(figure, reference, "the reference run of this form, nothing"
                            + " failing"));
                }
                figures.add(figure);
                notes.add(String.format(Locale.ROOT, "%s: %,d messages fail their first run; %s",
                        figure.label().replaceAll(" \\(.*", ""), plan.failingFirstRuns(total),
                        String.join("; ", details)));
            }
        }
        notes.add(String.format(Locale.ROOT, "Dead letters over every run: %,d, against %,d poison messages stored.",
                tally.dead.sum(), tally.poison.sum()));
        List<Invariant> invariants = List.of(
                Invariant.zero("dead letters not poison", tally.deadNotPoison.sum(), "dead exception rows of messages"
                        + " that fail once at most: they must have succeeded on their retry"),
                Invariant.zero("poison not dead", tally.poisonNotDead.sum(), "stored poison messages without a dead"
                        + " exception row once the run settled: the dead-letter count must equal the poison count"),
                Invariant.zero("order violations", tally.orderViolations.sum(), "successes of an ordered key after"
                        + " a success of a higher id of the same key"),
                Invariant.counted("dead letters", tally.dead.sum(), "dead exception rows over every run"));
        return new ScenarioResult(figures, comparisons, notes, invariants);
    }

    private Sample runOnce(BenchContext context, SqlStreams admin, List<SqlStreams> clients, Form form,
                           FailurePlan plan, int rate, long total, List<String> details, DeadTally tally)
            throws Exception {
        try (PacedStep paced = PacedStep.register(context, admin, "failure", form.group())) {
            Map<String, Long> highestSucceeded = new ConcurrentHashMap<>();
            HandledLog log = new HandledLog(total / SustainedScenario.MESSAGE_CONCURRENCY
                    / SustainedScenario.SESSIONS + 1024, true);
            Set<Long> failedOnce = ConcurrentHashMap.newKeySet();
            LongAdder failedRuns = new LongAdder();
            LongSummaryStatistics poisonAttempts = new LongSummaryStatistics();
            MessageHandler<BenchPayload> handler = payload -> {
                MessageMeta meta = MessageMeta.current();
                if (plan.poison(payload.id())) {
                    synchronized (poisonAttempts) {
                        poisonAttempts.accept(meta.attempt());
                    }
                }
                if (plan.poison(payload.id()) || plan.failsFirstRun(payload.id()) && failedOnce.add(meta.messageId())) {
                    failedRuns.increment();
                    throw new IllegalStateException("planned failure of message " + payload.id());
                }
                if (form.ordered()) {
                    long id = meta.messageId();
                    highestSucceeded.merge(meta.messageKey(), id, (highest, next) -> {
                        if (next < highest) {
                            tally.orderViolations.increment();
                        }
                        return Math.max(highest, next);
                    });
                }
                log.record(meta.messageId(), BenchClock.nowMicros() - payload.sentAtMicros());
            };
            long groupId = admin.stream(paced.stream().name(), BenchPayload.class).consumer(paced.group()).get()
                    .orElseThrow().id();
            DeadLetters deadLetters = new DeadLetters(context.dataSource(), paced.stream(), groupId);
            long poison = plan.poisonIndices().length;
            PacedStep.Outcome run = paced.run(clients, handler, log, SustainedScenario.CONSUME, rate, total,
                    SustainedScenario.callers(rate), form::options, (sent, slice) -> log.awaitCount(sent.acknowledged() - poison,
                            slice) && deadLetters.count() >= poison);
            long[] poisonIds = deadLetters.storedWithIndex(plan.poisonIndices());
            long[] deadIds = deadLetters.deadIds();
            long[] deadPoison = LongStream.of(deadIds).filter(id -> Arrays.binarySearch(poisonIds, id) >= 0)
                    .toArray();
            tally.dead.add(deadIds.length);
            tally.poison.add(poisonIds.length);
            tally.deadNotPoison.add(deadIds.length - deadPoison.length);
            tally.poisonNotDead.add(poisonIds.length - deadPoison.length);
            // a poison message's configured outcome is its dead letter: it counts as delivered
            long[] delivered = LongStream.concat(LongStream.of(log.sortedIds()), LongStream.of(deadPoison)).sorted()
                    .toArray();
            Pacer.Outcome sent = run.sent();
            Ledger ledger = DeliveryLedger.of(sent.sortedIds(), sent.duplicates(), paced.stream().rows(),
                    paced.stream().storedIds(), delivered);
            Map<Metric, Double> values = run.values(rate);
            values.put(Metric.FAILED_RUNS, (double) failedRuns.sum());
            values.put(Metric.DEAD_LETTERS, (double) deadIds.length);
            details.add(String.format(Locale.ROOT, "rep %d: produced %,d in %.1f s, %s%s; %d poison stored, %d dead"
                            + " letters, %d poison runs%s; %s", GroupSessions.nextRepetition(details),
                    sent.acknowledged(), sent.seconds(), run.settled() ? "settled" : "**NOT SETTLED** in the wait",
                    sent.unsent() > 0 ? String.format(Locale.ROOT, ", %,d unsent (the producer fell behind)",
                            sent.unsent()) : "", poisonIds.length, deadIds.length, poisonAttempts.getCount(),
                    poisonAttempts.getCount() == 0 ? "" : " (MessageMeta.attempt " + poisonAttempts.getMin() + " to "
                            + poisonAttempts.getMax() + ")", run.counters()));
            details.addAll(run.failures());
            return new Sample(values, ledger);
        }
    }
}
