package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.sqlstreams.GroupFence;
import io.sqlstreams.StreamVersionHealth;
import io.sqlstreams.StreamVersionHealth.GroupVersionHealth;
import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;

/**
 * What a stream's family holds per payload version and which of its groups still read it, and which open producers
 * hold back its groups' fresh claims.
 */
public final class StreamHealthQueries {
    private final Sql sql;

    public StreamHealthQueries(Sql sql) {
        this.sql = sql;
    }

    /**
     * Makes the rest of this transaction one read-only snapshot, so every count of a health read agrees; the
     * transaction's first statement.
     */
    public void snapshot(Connection connection) throws SQLException {
        try (BoundStatement set = BoundStatement.prepare(connection, sql.statement("read_health_snapshot"))) {
            set.update();
        }
    }

    /**
     * Every payload version the stream holds, lowest first, with the groups that still hold something at it: what
     * each will be delivered past its committed cursor (one bounded count per group and version the group has not
     * read past) and its unresolved exception rows.
     */
    public List<StreamVersionHealth> versions(Connection connection, long streamId) throws SQLException {
        Map<Holdings, Map<String, Held>> versions = new LinkedHashMap<>();
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("version_health", streamId))) {
            for (Row row : query.queryList(StreamHealthQueries::row)) {
                Map<String, Held> groups = versions.computeIfAbsent(row.holdings(), version -> new TreeMap<>());
                if (row.group() != null) {
                    groups.put(row.group(), new Held(0, row.retrying(), row.dead()));
                }
            }
        }
        for (Cursor cursor : cursors(connection, streamId)) {
            for (Map.Entry<Holdings, Map<String, Held>> version : versions.entrySet()) {
                long unread = unread(connection, streamId, cursor, version.getKey());
                if (unread > 0) {
                    version.getValue().merge(cursor.group(), new Held(unread, 0, 0), Held::plus);
                }
            }
        }
        return versions.entrySet().stream().map(version -> version.getKey().with(version.getValue())).toList();
    }

    private List<Cursor> cursors(Connection connection, long streamId) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("group_cursors", streamId))) {
            return query.queryList(row -> new Cursor(row.getLong("consumer_group_id"), row.getString("consumer_group"),
                    row.getLong("committed"), row.getLong("head")));
        }
    }

    /** What the group will be delivered of the version's rows past its cursor; no read when it has none there. */
    private long unread(Connection connection, long streamId, Cursor cursor, Holdings version) throws SQLException {
        if (version.lastId() == null || version.lastId() <= cursor.committed()) {
            return 0;
        }
        long low = Math.max(cursor.committed(), version.firstId() - 1);
        long high = Math.min(cursor.head(), version.lastId());
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("group_unread", streamId))) {
            return query.bind("group_id", cursor.groupId()).bind("schema_version", version.schemaVersion())
                    .bind("low", low).bind("high", high).querySingle(row -> row.getLong("unread"));
        }
    }

    /** Every group of the stream, by name, or only {@code group} when it is not null, with what holds it back. */
    public List<GroupFence> fences(Connection connection, long streamId, String group) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("group_fences", streamId))) {
            return query.bind("stream_id", streamId).bind("group_name", group).queryList(StreamHealthQueries::fence);
        }
    }

    private static GroupFence fence(ResultSet row) throws SQLException {
        long holders = row.getLong("holders");
        if (holders == 0) {
            return new GroupFence(row.getString("consumer_group"), null, 0);
        }
        return new GroupFence(row.getString("consumer_group"), FenceHolderRow.read(row), holders - 1);
    }

    /** What the stream retains of one version, the same on each of the version's rows. */
    private record Holdings(int schemaVersion, long messages, Long firstId, Long lastId, long compactionHeads) {
        StreamVersionHealth with(Map<String, Held> groups) {
            return new StreamVersionHealth(schemaVersion, messages, firstId, lastId, compactionHeads,
                    groups.entrySet().stream().map(group -> group.getValue().of(group.getKey())).toList());
        }
    }

    /** What one group holds at one version. */
    private record Held(long unread, long retrying, long dead) {
        Held plus(Held other) {
            return new Held(unread + other.unread, retrying + other.retrying, dead + other.dead);
        }

        GroupVersionHealth of(String group) {
            return new GroupVersionHealth(group, unread, retrying, dead);
        }
    }

    /** A group's committed cursor and the log's head in the same snapshot. */
    private record Cursor(long groupId, String group, long committed, long head) {
    }

    /** One row: a version's holdings and one group's exception rows at it, group null when none has any. */
    private record Row(Holdings holdings, String group, long retrying, long dead) {
    }

    private static Row row(ResultSet row) throws SQLException {
        return new Row(new Holdings(row.getInt("schema_version"), row.getLong("messages"),
                row.getObject("first_id", Long.class), row.getObject("last_id", Long.class),
                row.getLong("compaction_heads")),
                row.getString("consumer_group"), row.getLong("retrying"), row.getLong("dead"));
    }
}
