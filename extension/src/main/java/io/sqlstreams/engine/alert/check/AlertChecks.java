package io.sqlstreams.engine.alert.check;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.sqlstreams.AlertEvaluationSnapshot;
import io.sqlstreams.AlertOwner;
import io.sqlstreams.AlertState;
import io.sqlstreams.Code;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricDefinition;
import io.sqlstreams.Stream;
import io.sqlstreams.SystemConfig;
import io.sqlstreams.engine.alert.AlertEvaluator.AlertJudgement;
import io.sqlstreams.engine.alert.AlertEvaluator;
import io.sqlstreams.engine.alert.AlertPolicies;
import io.sqlstreams.engine.alert.BuiltInAlert;
import io.sqlstreams.engine.alert.EvaluationContext;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.metrics.BuiltInMetrics;
import io.sqlstreams.engine.metrics.collector.EngineMeasurementProducer;
import io.sqlstreams.engine.query.StreamQueries;
import io.sqlstreams.engine.worker.WorkerTask;

/**
 * The system's {@code alert_checks} worker: each tick runs the built-in alert checks whose schedule is due, under
 * the policies declared now. A stream check judges every stream, each in a short transaction of its own, and
 * records each judgement; one stream's failure does not stop the others. Each check run then records its
 * SQL0075–SQL0078 gauges (attribute {@code alert}).
 *
 * <p>A judgement that cannot be made is logged as SQL0147, except a stream alert short of a recent sample while
 * the collector has not yet had the chance to record one: until the alert's maximum gap plus one collector poll
 * has passed since the later of these checks' first run and the stream's creation
 * ({@link #awaitingFirstSamples}). A fresh installation, a restarted manager and a new stream so stay quiet; a
 * collector that stops later is still reported.
 */
public final class AlertChecks implements WorkerTask {
    private final Engine engine;
    private final AlertEvaluator evaluator;
    private final AlertRecorder recorder;
    private final StreamQueries streams;
    private final EngineMeasurementProducer measurements;
    private final Map<BuiltInAlert, Instant> nextDue = new EnumMap<>(BuiltInAlert.class);
    private Instant checkingSince;

    public AlertChecks(Engine engine) {
        this.engine = engine;
        this.evaluator = new AlertEvaluator(engine);
        this.recorder = new AlertRecorder(engine);
        this.streams = new StreamQueries(engine.sql());
        this.measurements = EngineMeasurementProducer.forLibrary(engine);
    }

    /** How often the worker ticks: as often as its most frequent check (the policies its row held when claimed). */
    public static Duration pollRate(String metadata) {
        SystemConfig config = AlertPolicies.read(SystemConfig.defaults(), metadata);
        Duration shortest = null;
        for (BuiltInAlert alert : BuiltInAlert.values()) {
            Duration every = AlertPolicies.interval(alert.alertName() + ".schedule",
                    AlertPolicies.schedule(config, alert));
            shortest = shortest == null || every.compareTo(shortest) < 0 ? every : shortest;
        }
        return shortest;
    }

    @Override
    public void tick() {
        EvaluationContext context = engine.database().autoCommit("reading the alert policies", evaluator::context);
        if (checkingSince == null) {
            checkingSince = context.evaluatedAt();
        }
        List<Measurement> results = new ArrayList<>();
        for (BuiltInAlert alert : BuiltInAlert.values()) {
            Instant due = nextDue.get(alert);
            if (due != null && context.evaluatedAt().isBefore(due)) {
                continue;
            }
            nextDue.put(alert, context.evaluatedAt().plus(AlertPolicies.interval(alert.alertName() + ".schedule",
                    AlertPolicies.schedule(context.config(), alert))));
            results.addAll(run(alert, context));
        }
        measurements.produceBatch(results);
    }

    private List<Measurement> run(BuiltInAlert alert, EvaluationContext context) {
        Tally tally = new Tally();
        if (alert.ownerKind() == AlertOwner.Kind.SYSTEM) {
            tally.count(check(alert, context, null));
        } else {
            for (Stream stream : engine.database().autoCommit("listing streams for alert " + alert.alertName(),
                    streams::all)) {
                tally.count(check(alert, context, stream));
            }
        }
        return tally.measurements(alert, context.evaluatedAt());
    }

    /** One judgement recorded; null when it could not be made. */
    private Outcome check(BuiltInAlert alert, EvaluationContext context, Stream stream) {
        String subject = stream == null ? "the system" : "stream \"" + stream.name() + "\"";
        try {
            AlertJudgement judgement = engine.database().inTransaction(
                    "evaluating alert " + alert.alertName() + " of " + subject, connection -> stream == null
                            ? evaluator.collectorProgress(connection, context)
                            : evaluator.stream(connection, context, alert, AlertOwner.stream(stream.id(),
                                    stream.name()), false));
            if (judgement.state() == AlertState.INSUFFICIENT) {
                if (stream != null && awaitingFirstSamples(judgement.snapshot(), later(checkingSince,
                        stream.createdAt()), context.config().resolvedMetricCollectorPollRate())) {
                    return Outcome.EVALUATED;
                }
                engine.diagnostics().event(Code.SQL0147, "alert " + alert.alertName() + " of " + subject + ": "
                        + judgement.snapshot().reason());
                return Outcome.FAILED;
            }
            return switch (recorder.record(judgement)) {
                case ACTIVATED, REPEATED -> Outcome.PUBLISHED;
                case RESOLVED -> Outcome.RESOLVED;
                case UNCHANGED -> Outcome.EVALUATED;
            };
        } catch (RuntimeException failure) {
            engine.diagnostics().event(Code.SQL0147, "alert " + alert.alertName() + " of " + subject
                    + " could not be checked: " + failure.getMessage());
            return Outcome.FAILED;
        }
    }

    /**
     * Whether a stream alert's {@code snapshot} lacks a recent sample (none, or none within its maximum gap) only
     * because the collector has not yet had a whole maximum gap plus one {@code collectorPollRate} since
     * {@code since} to record one.
     */
    static boolean awaitingFirstSamples(AlertEvaluationSnapshot snapshot, Instant since,
                                        Duration collectorPollRate) {
        Duration gap = snapshot.maximumGap();
        Instant evaluatedAt = snapshot.evaluatedAt();
        boolean noRecentSample = snapshot.observedAt() == null
                || Duration.between(snapshot.observedAt(), evaluatedAt).compareTo(gap) > 0;
        return noRecentSample && evaluatedAt.isBefore(since.plus(gap).plus(collectorPollRate));
    }

    private static Instant later(Instant one, Instant other) {
        return other != null && other.isAfter(one) ? other : one;
    }

    private enum Outcome {
        EVALUATED,
        FAILED,
        PUBLISHED,
        RESOLVED
    }

    private static final class Tally {
        private long evaluated;
        private long failed;
        private long published;
        private long resolved;

        void count(Outcome outcome) {
            evaluated++;
            switch (outcome) {
                case FAILED -> failed++;
                case PUBLISHED -> published++;
                case RESOLVED -> resolved++;
                case EVALUATED -> { }
            }
        }

        List<Measurement> measurements(BuiltInAlert alert, Instant at) {
            Map<String, String> attributes = Map.of("alert", alert.alertName());
            return List.of(gauge(Code.SQL0075, evaluated, attributes, at), gauge(Code.SQL0076, failed, attributes, at),
                    gauge(Code.SQL0077, published, attributes, at), gauge(Code.SQL0078, resolved, attributes, at));
        }

        private static Measurement gauge(Code code, long value, Map<String, String> attributes, Instant at) {
            MetricDefinition definition = BuiltInMetrics.of(code);
            return new Measurement(definition.name(), definition.kind(), value, definition.unit(), attributes, at,
                    null);
        }
    }
}
