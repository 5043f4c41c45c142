package io.sqlstreams.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import io.opentelemetry.api.OpenTelemetry;
import io.sqlstreams.ClientConfig;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.SqlStreams;

/**
 * The cost of the library's tracing and messaging metrics: one OpenTelemetry SDK configured as a server runs one
 * (exporters that only count), a client without it ("off") and one with it ("on"), and in both the callers produce
 * inside the application's own request spans, so the difference is the library's telemetry alone. Measured as
 * alternating pairs: {@code produce} from 16 callers, {@code produceBatch} of 100, and a drain of a pre-filled log
 * whose messages carry a trace context. Each repetition's exported spans and metric points are checked.
 */
final class TelemetryScenario implements Scenario {
    static final long DEFAULT_MESSAGES = 200_000;
    static final long SMOKE_MESSAGES = 5_000;
    static final int CALLERS = 16;
    static final int BATCH = 100;
    static final int DRAIN_BATCH_LIMIT = 1000;
    static final int DRAIN_CONCURRENCY = 8;

    private final AtomicInteger groups = new AtomicInteger();

    static String label(String measurement, boolean traced) {
        return measurement.replace(" (msg/s)", ", telemetry " + (traced ? "on" : "off") + " (msg/s)");
    }

    @Override
    public String name() {
        return "telemetry";
    }

    @Override
    public String title() {
        return "Cost of tracing and messaging metrics (issue: OpenTelemetry)";
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        long messages = context.options().messages().orElse(context.smoke() ? SMOKE_MESSAGES : DEFAULT_MESSAGES);
        List<Figure> figures = new ArrayList<>();
        List<Comparison> comparisons = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<String> exports = new ArrayList<>();
        TelemetryCost cost = new TelemetryCost();
        notes.add("One OpenTelemetry SDK: BatchSpanProcessor (default queue and batch sizes, "
                + BenchOpenTelemetry.SPAN_EXPORT_DELAY.toMillis() + " ms schedule delay), PeriodicMetricReader ("
                + BenchOpenTelemetry.METRIC_EXPORT_INTERVAL.toSeconds() + " s, delta), W3C propagator; its exporters"
                + " only count. Off: a client without it; on: a client with it. Both produce inside the application's"
                + " own request span of that SDK. Off and on alternate which runs first in each repetition.");
        try (BenchOpenTelemetry telemetry = new BenchOpenTelemetry();
             SqlStreams off = client(context, Optional.empty());
             SqlStreams on = client(context, Optional.of(telemetry.openTelemetry()))) {
            TelemetryCheck check = new TelemetryCheck(telemetry, exports);
            OffAndOn pairs = new OffAndOn(context, check, cost, figures, comparisons);
            ProduceMeasurement offProducer = producer(context, off, telemetry);
            ProduceMeasurement onProducer = producer(context, on, telemetry);
            notes.add(Warmup.run(context, ProduceScenario.produceLabel(CALLERS).replace(" (msg/s)", "")
                    + ", off then on", () -> {
                        offProducer.produce(CALLERS);
                        return onProducer.produce(CALLERS);
                    }));
            pairs.measure(ProduceScenario.produceLabel(CALLERS), () -> offProducer.produce(CALLERS),
                    () -> onProducer.produce(CALLERS), (sample, traced) -> produceSpans(sample, 1, traced),
                    context.baselines().insert100());
            pairs.measure(ProduceScenario.batchLabel(BATCH), () -> offProducer.produceBatch(BATCH),
                    () -> onProducer.produceBatch(BATCH), (sample, traced) -> produceSpans(sample, BATCH, traced),
                    context.baselines().insert100());
            drain(context, messages, telemetry, off, on, pairs, figures, notes);
        }
        notes.add("Exported per repetition (must be: request spans = produce calls in both; send spans = produce"
                + " calls and process spans = drained messages when on, none when off; the library's metric points > 0"
                + " when on):");
        notes.addAll(exports);
        return new ScenarioResult(figures, comparisons, notes, List.of(), List.of(cost.table()));
    }

    private void drain(BenchContext context, long messages, BenchOpenTelemetry telemetry, SqlStreams off,
                       SqlStreams on, OffAndOn pairs, List<Figure> figures, List<String> notes) throws Exception {
        Figure raw;
        context.progress().note(String.format(Locale.ROOT, "filling a raw log with %,d rows", messages));
        try (RawDrain rawDrain = RawDrain.fill(context.dataSource(), context.schema(), messages)) {
            raw = context.repetitions().measure(RawDrain.label(DRAIN_BATCH_LIMIT, rawDrain.rows()),
                    () -> rawDrain.drainOnce(DRAIN_BATCH_LIMIT));
        }
        figures.add(raw);
        context.progress().note(String.format(Locale.ROOT, "pre-filling a stream with %,d messages inside request"
                + " spans, telemetry on", messages));
        try (BenchStream stream = BenchStream.register(on, context.dataSource(), context.schema(), "telemetry")) {
            LibraryPrefill.Filled filled = LibraryPrefill.fillInside(stream, messages, telemetry.requestSpans());
            notes.add(String.format(Locale.ROOT, "Drain: %,d messages pre-filled by produceBatch(%d) from %d threads,"
                    + " each call inside a request span with telemetry on, so every message carries a traceparent;"
                    + " off and on each drain that log with a fresh consumer group.", filled.ids().length,
                    LibraryPrefill.BATCH, LibraryPrefill.THREADS));
            GroupDrain drain = GroupDrain.of(context, stream, filled);
            ConsumeOptions consume = DrainScenario.consume(DRAIN_BATCH_LIMIT, DRAIN_CONCURRENCY);
            Duration warmup = Warmup.limit(context);
            notes.add(Warmup.run(context, "drain, telemetry on, cut at " + warmup.toSeconds() + " s",
                    () -> drainOnce(context, on, drain, consume, Optional.of(warmup), new ArrayList<>())));
            List<String> offDetails = new ArrayList<>();
            List<String> onDetails = new ArrayList<>();
            pairs.measure(DrainScenario.label(1, DRAIN_BATCH_LIMIT, DRAIN_CONCURRENCY, messages),
                    () -> drainOnce(context, off, drain, consume, Optional.empty(), offDetails),
                    () -> drainOnce(context, on, drain, consume, Optional.empty(), onDetails),
                    (sample, traced) -> new ExpectedSpans(0, 0, traced ? sample.ledger().delivered() : 0), raw);
            notes.add("Drain, telemetry off: " + String.join("; ", offDetails));
            notes.add("Drain, telemetry on: " + String.join("; ", onDetails));
        }
    }

    private Sample drainOnce(BenchContext context, SqlStreams client, GroupDrain drain, ConsumeOptions consume,
                             Optional<Duration> limit, List<String> details) throws Exception {
        return DrainScenario.drainOnce(context, List.of(client), drain, "telemetry-" + groups.incrementAndGet(),
                consume, limit, details);
    }

    /** A produce repetition makes one call per {@code perCall} acknowledged messages, each in a request span. */
    private static ExpectedSpans produceSpans(Sample sample, int perCall, boolean traced) {
        long calls = sample.ledger().acknowledged() / perCall;
        return new ExpectedSpans(calls, traced ? calls : 0, 0);
    }

    private static ProduceMeasurement producer(BenchContext context, SqlStreams client, BenchOpenTelemetry telemetry) {
        return new ProduceMeasurement(client, context.dataSource(), context.schema(), context.measurement(),
                telemetry.requestSpans());
    }

    private static SqlStreams client(BenchContext context, Optional<OpenTelemetry> openTelemetry) {
        ClientConfig.Builder config = ClientConfig.builder().schema(context.schema()).allowDestroy(true);
        openTelemetry.ifPresent(config::openTelemetry);
        return SqlStreams.create(context.dataSource(), config.build());
    }
}
