package io.sqlstreams.engine.consume;

import java.sql.SQLException;
import java.util.List;

import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;

/**
 * Read and poke SQL for the consumer group tests on top of {@link Sql}, on one test class's installation schema:
 * stream family tables are named with the stream id, every value is bound.
 */
final class GroupProbe extends Sql {
    /** The two worker rows a group's declaration is written to, in the order {@code workers()} lists them (by name). */
    static final List<String> WORKER_NAMES = List.of("exception_consumer", "message_consumer");
    /** Every worker row of a registered group, by name: the declaration's two and the {@code cursor_advancer}. */
    static final List<String> ALL_WORKER_NAMES = List.of("cursor_advancer", "exception_consumer", "message_consumer");

    GroupProbe(TestDatabase database) {
        super(database);
    }

    /** True when two JSON texts are the same document (compared as jsonb: key order and spacing ignored). */
    boolean sameJson(String a, String b) throws SQLException {
        return bool("SELECT ?::jsonb = ?::jsonb", a, b);
    }

    /** Rows of a stream family table ({@code prefix_<streamId>}) that belong to one group. */
    long groupRows(String prefix, long streamId, long groupId) throws SQLException {
        return count("SELECT count(*) FROM {s}." + prefix + "_" + streamId + " WHERE consumer_group_id = ?",
                groupId);
    }

    /** The group's cursor as [claimed, committed, settled_head, pending_head], or null without a cursor row. */
    List<Long> cursor(long streamId, long groupId) throws SQLException {
        List<List<String>> rows = table("SELECT claimed, committed, settled_head, pending_head FROM"
                + " {s}.consumer_group_cursor_" + streamId + " WHERE consumer_group_id = ?", groupId);
        return rows.isEmpty() ? null : rows.get(0).stream().map(Long::parseLong).toList();
    }

    /** The group's worker rows as [name, metadata, target_instances], ordered by name. */
    List<List<String>> workers(long groupId) throws SQLException {
        return table("SELECT name, metadata::text, target_instances::text FROM {s}.worker_config"
                + " WHERE consumer_group_id = ? ORDER BY name", groupId);
    }

    /** Snapshots in worker_config_log for the group's worker {@code worker}. */
    long configLog(long groupId, String worker) throws SQLException {
        return count("SELECT count(*) FROM {s}.worker_config_log l JOIN {s}.worker_config w"
                + " ON w.id = l.worker_id WHERE w.consumer_group_id = ? AND w.name = ?", groupId, worker);
    }

    /** worker_config_log rows of every group worker in the schema. */
    long allConfigLog() throws SQLException {
        return count("SELECT count(*) FROM {s}.worker_config_log l JOIN {s}.worker_config w"
                + " ON w.id = l.worker_id WHERE w.consumer_group_id IS NOT NULL");
    }

    /** Group rows and group worker rows in the whole schema: what a rejected register must not change. */
    List<Long> groupFootprint() throws SQLException {
        return List.of(count("SELECT count(*) FROM {s}.consumer_group_config"),
                count("SELECT count(*) FROM {s}.worker_config WHERE consumer_group_id IS NOT NULL"),
                allConfigLog());
    }

    /** The group's liveness rows as [worker name, instance id, expires_at in epoch microseconds]. */
    List<List<String>> instances(long groupId) throws SQLException {
        return table("SELECT w.name, i.id::text, (extract(epoch FROM i.expires_at) * 1000000)::bigint::text"
                + " FROM {s}.worker_instance i JOIN {s}.worker_config w ON w.id = i.worker_id"
                + " WHERE w.consumer_group_id = ? ORDER BY w.name, i.id", groupId);
    }
}
