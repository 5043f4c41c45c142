package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sqlstreams.StreamVersionHealth;
import io.sqlstreams.StreamVersionHealth.GroupVersionHealth;
import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;

/** What a stream's family holds per payload version and which of its groups still read it. */
public final class StreamHealthQueries {
    private final Sql sql;

    public StreamHealthQueries(Sql sql) {
        this.sql = sql;
    }

    /** Every payload version the stream holds, lowest first, with the groups that still hold something at it. */
    public List<StreamVersionHealth> versions(Connection connection, long streamId) throws SQLException {
        Map<Integer, List<GroupVersionHealth>> readers = new LinkedHashMap<>();
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("version_readers", streamId))) {
            for (Reader reader : query.queryList(StreamHealthQueries::reader)) {
                readers.computeIfAbsent(reader.schemaVersion(), version -> new ArrayList<>()).add(reader.health());
            }
        }
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("version_holdings", streamId))) {
            return query.queryList(row -> new StreamVersionHealth(row.getInt("schema_version"),
                    row.getLong("messages"), row.getObject("first_id", Long.class),
                    row.getObject("last_id", Long.class), row.getLong("compaction_heads"),
                    readers.getOrDefault(row.getInt("schema_version"), List.of())));
        }
    }

    private record Reader(int schemaVersion, GroupVersionHealth health) {
    }

    private static Reader reader(ResultSet row) throws SQLException {
        return new Reader(row.getInt("schema_version"), new GroupVersionHealth(row.getString("consumer_group"),
                row.getLong("unread"), row.getLong("retrying"), row.getLong("dead")));
    }
}
