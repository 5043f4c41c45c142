package io.sqlstreams.engine.alert;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.sqlstreams.AlertEvaluationSnapshot;
import io.sqlstreams.AlertOwner;
import io.sqlstreams.AlertState;
import io.sqlstreams.Code;
import io.sqlstreams.Measurement;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamAlertConfig;
import io.sqlstreams.SystemConfig;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.metrics.BuiltInMetrics;
import io.sqlstreams.engine.metrics.MeasurementDocument;
import io.sqlstreams.engine.metrics.MeasurementRules;
import io.sqlstreams.engine.metrics.SystemStreams;
import io.sqlstreams.engine.query.AlertQueries;
import io.sqlstreams.engine.query.KeyQueries;
import io.sqlstreams.engine.query.StreamQueries;
import io.sqlstreams.engine.query.SystemQueries;
import io.sqlstreams.engine.query.WorkerQueries;
import io.sqlstreams.engine.worker.SystemWorkerNames;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * Evaluates the built-in alerts from recorded evidence (digest §7.6), recording nothing: the stream alerts from
 * the metrics collector's samples on {@code __system.metrics} under the pending policy, the collector-progress
 * alert from the collector's last completion and the manager's lease history.
 */
public final class AlertEvaluator {
    private final Engine engine;
    private final AlertQueries alerts;
    private final KeyQueries keys;
    private final StreamQueries streams;
    private final SystemQueries system;
    private final StoredSystemConfig storedConfig;

    public AlertEvaluator(Engine engine) {
        this.engine = engine;
        this.alerts = new AlertQueries(engine.sql());
        this.keys = new KeyQueries(engine.sql());
        this.streams = new StreamQueries(engine.sql());
        this.system = new SystemQueries(engine.sql());
        this.storedConfig = new StoredSystemConfig(new WorkerQueries(engine.sql()));
    }

    /** The time, lock ceiling and declared policies of an evaluation now. */
    public EvaluationContext context(Connection connection) throws SQLException {
        AlertQueries.AlertClock clock = alerts.clock(connection);
        Long systemId = system.system(connection).map(SystemQueries.SystemRow::id).orElse(null);
        return new EvaluationContext(clock.evaluatedAt(), clock.halfLockCeiling(),
                systemId == null ? SystemConfig.defaults() : storedConfig.read(connection, systemId),
                streams.find(connection, SystemStreams.METRICS).map(Stream::id).orElse(null));
    }

    /**
     * One stream alert of the stream {@code owner} under its declared policy, or with pending disabled when
     * {@code forceDisablePending} (the register-time pass).
     */
    public AlertJudgement stream(Connection connection, EvaluationContext context, BuiltInAlert alert,
                                 AlertOwner owner, boolean forceDisablePending) throws SQLException {
        StreamEvidence evidence = StreamEvidence.of(alert);
        StreamAlertConfig declared = evidence.policy(context.config());
        PendingPolicy policy = new PendingPolicy(declared.resolvedPendingDuration(), declared.resolvedMaximumGap(),
                declared.disablePending() || forceDisablePending);
        long threshold = evidence.threshold(context);
        List<Measurement> measurements = new ArrayList<>();
        List<Sample> samples = samples(connection, context, evidence, owner.stream(), policy, threshold,
                measurements);
        PendingPolicy.Evaluation evaluation = policy.evaluate(samples, context.evaluatedAt());
        String finding = evaluation.newest() == null ? "no sample recorded" : evaluation.newest().finding();
        AlertEvaluationSnapshot snapshot = new AlertEvaluationSnapshot(evaluation.state(),
                "stream \"" + owner.stream() + "\": " + finding, context.evaluatedAt(),
                evaluation.newest() == null ? null : evaluation.newest().recordedAt(), evaluation.unhealthySince(),
                evaluation.span(), policy.pendingDuration(), policy.disablePending(), policy.maximumGap(), null,
                evaluation.reason());
        JsonObjectBuilder data = Json.createObjectBuilder().add("threshold", threshold)
                .add("samples", samples.size());
        if (!measurements.isEmpty()) {
            double value = measurements.get(0).value();
            if (value == Math.rint(value)) {
                data.add("value", (long) value);
            } else {
                data.add("value", value);
            }
        }
        return new AlertJudgement(alert, owner, snapshot,
                withTimes(data, snapshot));
    }

    /** {@code metrics_collector_progress} under its declared policy. */
    public AlertJudgement collectorProgress(Connection connection, EvaluationContext context) throws SQLException {
        CollectorProgress progress = new CollectorProgress(context.config().metricCollectorProgressAlert(),
                context.config().resolvedMetricCollectorPollRate());
        Optional<Instant> completed = lastCompletion(connection, context);
        CollectorProgress.Verdict verdict = progress.evaluate(completed.orElse(null),
                alerts.systemWorkerLeases(connection, SystemWorkerNames.MANAGER),
                context.evaluatedAt());
        AlertEvaluationSnapshot snapshot = new AlertEvaluationSnapshot(verdict.state(), verdict.finding(),
                context.evaluatedAt(), completed.orElse(null), verdict.lateSince(), verdict.lateFor(),
                progress.pendingDuration(), progress.disablePending(), null, progress.maximumAge(),
                verdict.reason());
        JsonObjectBuilder data = Json.createObjectBuilder()
                .add("maximum_age_ms", progress.maximumAge().toMillis());
        completed.ifPresent(at -> data.add("completed_at", at.toString()));
        return new AlertJudgement(BuiltInAlert.METRICS_COLLECTOR_PROGRESS, AlertOwner.system(), snapshot,
                withTimes(data, snapshot));
    }

    private List<Sample> samples(Connection connection, EvaluationContext context, StreamEvidence evidence,
                                 String stream, PendingPolicy policy, long threshold, List<Measurement> decoded)
            throws SQLException {
        if (context.metricsStreamId() == null) {
            return List.of();
        }
        String series = MeasurementRules.checkSeries(BuiltInMetrics.of(evidence.series()).name(),
                Map.of("stream", stream));
        List<Sample> samples = new ArrayList<>();
        for (AlertQueries.StoredSample stored : alerts.samples(connection, context.metricsStreamId(), series,
                policy.windowStart(context.evaluatedAt()))) {
            Measurement measurement = engine.codec().decode(stored.payload(), MeasurementDocument.class)
                    .toMeasurement();
            decoded.add(measurement);
            samples.add(new Sample(stored.createdAt(), stored.id(), evidence.judge(measurement, threshold),
                    evidence.finding(measurement, threshold)));
        }
        return samples;
    }

    private Optional<Instant> lastCompletion(Connection connection, EvaluationContext context) throws SQLException {
        if (context.metricsStreamId() == null) {
            return Optional.empty();
        }
        String series = MeasurementRules.checkSeries(BuiltInMetrics.of(Code.SQL0100).name(), Map.of());
        return keys.compactionHead(connection, context.metricsStreamId(), series)
                .map(head -> engine.codec().decode(head.payload(), MeasurementDocument.class).toMeasurement())
                .map(measurement -> Instant.ofEpochMilli(Math.round(measurement.value() * 1000)));
    }

    private static JsonObject withTimes(JsonObjectBuilder data, AlertEvaluationSnapshot snapshot) {
        if (snapshot.observedAt() != null) {
            data.add("observed_at", snapshot.observedAt().toString());
        }
        if (snapshot.unhealthySince() != null) {
            data.add("unhealthy_since", snapshot.unhealthySince().toString());
        }
        return data.add("observed_duration_ms", snapshot.observedDuration().toMillis())
                .add("pending_duration_ms", snapshot.pendingDuration().toMillis()).build();
    }

    /** An evaluation of one alert of one owner, with the evidence a recorded report carries as its data. */
    public record AlertJudgement(BuiltInAlert alert, AlertOwner owner, AlertEvaluationSnapshot snapshot,
                                 JsonObject data) {
        public AlertState state() {
            return snapshot.state();
        }
    }
}
