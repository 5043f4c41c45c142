package io.sqlstreams.engine.operator;

import java.util.List;
import java.util.Optional;

import io.sqlstreams.BlockedKey;
import io.sqlstreams.Code;
import io.sqlstreams.OperatorAction;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.OperatorQueries;

/**
 * A group's pause and resume, its audit trail and its blocked ordered keys. The group is paused while its newest
 * pause-or-resume action is a pause; sessions read that at every declaration refresh.
 */
public final class GroupControls {
    private final Engine engine;
    private final OperatorTarget target;
    private final OperatorQueries queries;

    public GroupControls(Engine engine, String stream, String group) {
        this.engine = engine;
        this.target = new OperatorTarget(engine, stream, group);
        this.queries = new OperatorQueries(engine.sql());
    }

    public Optional<OperatorAction> pause(String actor) {
        return toggle(actor, OperatorAction.Kind.PAUSE);
    }

    public Optional<OperatorAction> resume(String actor) {
        return toggle(actor, OperatorAction.Kind.RESUME);
    }

    public Optional<OperatorAction> paused() {
        target.checkNames();
        return engine.database().autoCommit("reading whether " + target.describe() + " is paused",
                connection -> queries.pauseState(connection, target.resolve(connection).groupId())
                        .filter(action -> action.kind() == OperatorAction.Kind.PAUSE));
    }

    public List<OperatorAction> actions(int limit) {
        OperatorRequests.limit(limit);
        target.checkNames();
        return engine.database().autoCommit("reading the operator actions on " + target.describe(),
                connection -> queries.actions(connection, target.resolve(connection).groupId(), limit));
    }

    public List<BlockedKey> blockedKeys(int limit) {
        OperatorRequests.limit(limit);
        target.checkNames();
        return engine.database().autoCommit("reading the blocked ordered keys of " + target.describe(),
                connection -> queries.blockedKeys(connection, target.resolve(connection), limit));
    }

    private Optional<OperatorAction> toggle(String actor, OperatorAction.Kind wanted) {
        String who = OperatorRequests.actor(actor, engine.declarer());
        target.checkNames();
        boolean pausing = wanted == OperatorAction.Kind.PAUSE;
        Optional<OperatorAction> recorded = engine.database().inTransaction(
                (pausing ? "pausing " : "resuming ") + target.describe(), connection -> {
                    long groupId = target.resolve(connection).groupId();
                    queries.lockGroup(connection, groupId);
                    boolean paused = queries.pauseState(connection, groupId)
                            .map(action -> action.kind() == OperatorAction.Kind.PAUSE).orElse(false);
                    return paused == pausing ? Optional.<OperatorAction>empty()
                            : Optional.of(queries.record(connection, groupId, wanted, who, "{}"));
                });
        recorded.ifPresent(action -> engine.diagnostics().event(pausing ? Code.SQL0150 : Code.SQL0151,
                target.describe() + (pausing ? " paused" : " resumed") + " by " + who + " (operator action "
                        + action.id() + "); its instances see it within their ConfigRefreshInterval"));
        return recorded;
    }
}
