package io.sqlstreams.engine.alert.check;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

import io.sqlstreams.Alert;
import io.sqlstreams.AlertState;
import io.sqlstreams.AlertStatus;
import io.sqlstreams.CompactionOptions;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProducerConfig;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.alert.AlertDocument;
import io.sqlstreams.engine.alert.AlertEvaluator.AlertJudgement;
import io.sqlstreams.engine.alert.AlertKeys;
import io.sqlstreams.engine.alert.BuiltInAlert;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.metrics.SystemStreams;
import io.sqlstreams.engine.metrics.collector.SystemStreamDeclaration;
import io.sqlstreams.engine.produce.EngineProducer;
import io.sqlstreams.engine.produce.EngineProducerHandle;
import io.sqlstreams.engine.query.KeyQueries;

/**
 * Records a healthy or active judgement on {@code __system.alerts}: in one transaction it locks the alert's head,
 * classifies the change (activation, a repeat of an active alert unchanged for four hours, recovery, or nothing)
 * and produces a report only when one is due. Pending and insufficient judgements are never recorded.
 */
final class AlertRecorder {
    static final Duration REPEAT_AFTER = Duration.ofHours(4);

    enum Transition {
        ACTIVATED,
        REPEATED,
        RESOLVED,
        UNCHANGED
    }

    private final Engine engine;
    private final KeyQueries keys;
    private Stream stream;
    private EngineProducer<AlertDocument> producer;

    AlertRecorder(Engine engine) {
        this.engine = engine;
        this.keys = new KeyQueries(engine.sql());
    }

    Transition record(AlertJudgement judgement) {
        AlertState state = judgement.state();
        if (state != AlertState.ACTIVE && state != AlertState.HEALTHY) {
            return Transition.UNCHANGED;
        }
        EngineProducer<AlertDocument> reports = producer();
        String key = AlertKeys.alert(judgement.alert().alertName(), judgement.owner());
        Transition transition = engine.database().inTransaction("recording alert " + key, connection -> {
            keys.lockCompactionHead(connection, stream.id(), key);
            Optional<Alert> head = keys.compactionHead(connection, stream.id(), key)
                    .map(message -> engine.codec().decode(message.payload(), AlertDocument.class).toAlert());
            Transition due = classify(state, head, judgement);
            if (due != Transition.UNCHANGED) {
                reports.produce(connection, AlertDocument.of(report(judgement, due), judgement.data()),
                        ProduceOptions.builder().routingKey(AlertKeys.owner(judgement.owner())).messageKey(key)
                                .compaction(CompactionOptions.enabled()).build());
            }
            return due;
        });
        if (transition != Transition.UNCHANGED) {
            reports.announceCommit();
            engine.diagnostics().event(judgement.alert().code(), describe(transition, judgement));
        }
        return transition;
    }

    private static Transition classify(AlertState state, Optional<Alert> head, AlertJudgement judgement) {
        boolean active = head.filter(alert -> alert.status() == AlertStatus.ACTIVE).isPresent();
        if (state == AlertState.HEALTHY) {
            return active ? Transition.RESOLVED : Transition.UNCHANGED;
        }
        if (!active) {
            return Transition.ACTIVATED;
        }
        Duration unchangedFor = Duration.between(head.get().at(), judgement.snapshot().evaluatedAt());
        return unchangedFor.compareTo(REPEAT_AFTER) >= 0 ? Transition.REPEATED : Transition.UNCHANGED;
    }

    private static Alert report(AlertJudgement judgement, Transition transition) {
        BuiltInAlert alert = judgement.alert();
        AlertStatus status = transition == Transition.RESOLVED ? AlertStatus.RESOLVED : AlertStatus.ACTIVE;
        String message = alert.alertName() + (status == AlertStatus.RESOLVED ? " resolved: " : ": ")
                + judgement.snapshot().finding();
        return new Alert(alert.alertName(), alert.code(), judgement.owner(), status, BuiltInAlert.SEVERITY, message,
                alert.code().meaning(), alert.code().action(), judgement.data().toString(),
                judgement.snapshot().evaluatedAt());
    }

    private static String describe(Transition transition, AlertJudgement judgement) {
        return "alert " + judgement.alert().alertName() + " " + transition.name().toLowerCase(Locale.ROOT)
                + ": " + judgement.snapshot().finding() + " (" + judgement.snapshot().reason() + ")";
    }

    private synchronized EngineProducer<AlertDocument> producer() {
        if (producer == null) {
            stream = SystemStreamDeclaration.ensure(engine, SystemStreams.ALERTS, SystemStreams.ALERTS_RETENTION);
            producer = new EngineProducerHandle<>(engine, SystemStreams.ALERTS, AlertDocument.class)
                    .register(ProducerConfig.defaults());
        }
        return producer;
    }
}
