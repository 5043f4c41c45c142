package io.sqlstreams.engine.consume;

import java.util.concurrent.atomic.AtomicReference;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.engine.context.Engine;

/**
 * This instance's copy of the group declaration. Claims read only the copy, never the database; a refresh
 * every ConfigRefreshInterval re-reads the stored declaration, and a failed refresh keeps the last copy
 * (SQL0060).
 */
final class GroupConfigCache {
    private final Engine engine;
    private final RegisteredGroup group;
    private final AtomicReference<ConsumerConfig> current;

    GroupConfigCache(Engine engine, RegisteredGroup group, ConsumerConfig initial) {
        this.engine = engine;
        this.group = group;
        this.current = new AtomicReference<>(initial);
    }

    ConsumerConfig current() {
        return current.get();
    }

    void refresh() {
        try {
            String stored = engine.database().autoCommit("refreshing the declaration of " + group.describe(),
                    connection -> new GroupRows(engine.sql()).declaration(connection, group.groupId()));
            if (stored != null) {
                current.set(GroupDocument.read(GroupDocument.parse(stored)));
            }
        } catch (RuntimeException failure) {
            engine.diagnostics().event(Code.SQL0060, "could not refresh the declaration of " + group.describe()
                    + "; the last copy stays in use: " + failure.getMessage());
        }
    }
}
