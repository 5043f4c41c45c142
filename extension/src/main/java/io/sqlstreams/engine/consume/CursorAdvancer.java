package io.sqlstreams.engine.consume;

import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.ClaimQueries;

/**
 * Moves a group's committed cursor: committed := max(committed, least(lowest open lease low, lowest unresolved
 * exception id − 1, claimed)). The target is read in one snapshot (cursor, leases and exceptions together) and
 * applied by a monotonic update, so a stale target can only be too low. Dead rows never hold it back.
 */
final class CursorAdvancer {
    private final Engine engine;
    private final RegisteredGroup group;
    private final ClaimQueries queries;

    CursorAdvancer(Engine engine, RegisteredGroup group) {
        this.engine = engine;
        this.group = group;
        this.queries = new ClaimQueries(engine.sql());
    }

    /** Advances the cursor where its target is ahead; false when the group's cursor row is gone with the group. */
    boolean advance() {
        ClaimQueries.CommitTarget target = engine.database().autoCommit("reading the commit target of "
                + group.describe(), connection -> queries.commitTarget(connection, group.ids()).orElse(null));
        if (target == null) {
            return false;
        }
        if (target.target() > target.committed()) {
            engine.database().autoCommit("advancing the committed cursor of " + group.describe(), connection -> {
                queries.advanceCommitted(connection, group.ids(), target.target());
                return null;
            });
        }
        return true;
    }
}
