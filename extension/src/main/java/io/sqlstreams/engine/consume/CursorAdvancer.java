package io.sqlstreams.engine.consume;

import java.sql.PreparedStatement;
import java.sql.ResultSet;

import io.sqlstreams.engine.Engine;

/**
 * Moves a group's committed cursor: committed := max(committed, least(lowest open lease low, lowest unresolved
 * exception id − 1, claimed)). The target is read in one snapshot (cursor, leases and exceptions together) and
 * applied by a monotonic update, so a stale target can only be too low. Dead rows never hold it back.
 */
final class CursorAdvancer {
    private final Engine engine;
    private final RegisteredGroup group;

    CursorAdvancer(Engine engine, RegisteredGroup group) {
        this.engine = engine;
        this.group = group;
    }

    void advance() {
        long[] target = engine.database().autoCommit("reading the commit target of " + group.describe(), connection -> {
            try (PreparedStatement read = connection.prepareStatement(
                    engine.sql().forStream("advance_committed_target", group.streamId()))) {
                read.setLong(1, group.groupId());
                try (ResultSet row = read.executeQuery()) {
                    return row.next() ? new long[] {row.getLong(1), row.getLong(2)} : null;
                }
            }
        });
        if (target == null || target[1] <= target[0]) {
            return;
        }
        engine.database().autoCommit("advancing the committed cursor of " + group.describe(), connection -> {
            try (PreparedStatement update = connection.prepareStatement(
                    engine.sql().forStream("advance_committed", group.streamId()))) {
                update.setLong(1, target[1]);
                update.setLong(2, group.groupId());
                update.setLong(3, target[1]);
                return update.executeUpdate();
            }
        });
    }
}
