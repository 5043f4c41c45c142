package io.sqlstreams.engine.alert;

import java.util.Optional;

import io.sqlstreams.AlertOwner;
import io.sqlstreams.AlertState;
import io.sqlstreams.Code;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.StreamQueries;

/**
 * The register-time alert pass: when a stream, consumer or producer registers, the stream alerts are evaluated
 * once from the evidence already recorded, with pending disabled, and each condition that holds is logged as
 * SQL0063. Nothing is published. The registration has succeeded by then, so a failure here is only logged
 * (SQL0147).
 */
public final class RegistrationAlertPass {
    private RegistrationAlertPass() {
    }

    public static void run(Engine engine, String stream) {
        AlertEvaluator evaluator = new AlertEvaluator(engine);
        StreamQueries streams = new StreamQueries(engine.sql());
        try {
            engine.database().autoCommit("evaluating the alerts of stream \"" + stream + "\" at registration",
                    connection -> {
                        Optional<Stream> found = streams.find(connection, stream);
                        if (found.isEmpty()) {
                            return null;
                        }
                        AlertOwner owner = AlertOwner.stream(found.get().id(), found.get().name());
                        EvaluationContext context = evaluator.context(connection);
                        for (BuiltInAlert alert : BuiltInAlert.values()) {
                            if (alert.ownerKind() != AlertOwner.Kind.STREAM) {
                                continue;
                            }
                            AlertEvaluator.AlertJudgement judgement = evaluator.stream(connection, context, alert,
                                    owner, true);
                            if (judgement.state() == AlertState.ACTIVE) {
                                engine.diagnostics().event(Code.SQL0063, alert.alertName() + " ("
                                        + alert.code().id() + ") holds for " + judgement.snapshot().finding());
                            }
                        }
                        return null;
                    });
        } catch (RuntimeException failure) {
            engine.diagnostics().event(Code.SQL0147, "the register-time alert pass of stream \"" + stream
                    + "\" could not read its evidence: " + failure.getMessage());
        }
    }
}
