package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    /** Every payload version the stream holds, lowest first, with the groups that still hold something at it. */
    public List<StreamVersionHealth> versions(Connection connection, long streamId) throws SQLException {
        Map<Holdings, List<GroupVersionHealth>> versions = new LinkedHashMap<>();
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("version_health", streamId))) {
            for (Row row : query.queryList(StreamHealthQueries::row)) {
                List<GroupVersionHealth> groups = versions.computeIfAbsent(row.holdings(),
                        version -> new ArrayList<>());
                if (row.reader() != null) {
                    groups.add(row.reader());
                }
            }
        }
        return versions.entrySet().stream().map(version -> version.getKey().with(version.getValue())).toList();
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
        StreamVersionHealth with(List<GroupVersionHealth> groups) {
            return new StreamVersionHealth(schemaVersion, messages, firstId, lastId, compactionHeads, groups);
        }
    }

    /** One row: a version's holdings and one group's share of it, null when no group holds the version. */
    private record Row(Holdings holdings, GroupVersionHealth reader) {
    }

    private static Row row(ResultSet row) throws SQLException {
        String group = row.getString("consumer_group");
        return new Row(new Holdings(row.getInt("schema_version"), row.getLong("messages"),
                row.getObject("first_id", Long.class), row.getObject("last_id", Long.class),
                row.getLong("compaction_heads")),
                group == null ? null : new GroupVersionHealth(group, row.getLong("unread"), row.getLong("retrying"),
                        row.getLong("dead")));
    }
}
