package io.sqlstreams.engine.consume;

import java.util.concurrent.atomic.AtomicReference;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.OperatorAction;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.OperatorQueries;

/**
 * This instance's copy of the group declaration and of whether an operator paused the group. Claims read only the
 * copy, never the database; a refresh every ConfigRefreshInterval re-reads both, and a failed refresh keeps the
 * last copy (SQL0060).
 */
final class GroupConfigCache {
    private final Engine engine;
    private final RegisteredGroup group;
    private final AtomicReference<ConsumerConfig> current;
    private volatile boolean paused;

    GroupConfigCache(Engine engine, RegisteredGroup group, ConsumerConfig initial) {
        this.engine = engine;
        this.group = group;
        this.current = new AtomicReference<>(initial);
    }

    ConsumerConfig current() {
        return current.get();
    }

    /** Whether the group was paused at the last refresh: then the session claims nothing. */
    boolean paused() {
        return paused;
    }

    void refresh() {
        try {
            Stored stored = engine.database().autoCommit("refreshing the declaration of " + group.describe(),
                    connection -> new Stored(new GroupRows(engine.sql()).declaration(connection, group.groupId()),
                            new OperatorQueries(engine.sql()).pauseState(connection, group.groupId())
                                    .map(action -> action.kind() == OperatorAction.Kind.PAUSE).orElse(false)));
            if (stored.declaration() != null) {
                current.set(GroupDocument.read(GroupDocument.parse(stored.declaration())));
            }
            paused = stored.paused();
        } catch (RuntimeException failure) {
            engine.diagnostics().event(Code.SQL0060, "could not refresh the declaration of " + group.describe()
                    + "; the last copy stays in use: " + failure.getMessage());
        }
    }

    private record Stored(String declaration, boolean paused) {
    }
}
