package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;

/** Reads of a stream's log by message key, and its {@code compaction_head} rows and their locks. */
public final class KeyQueries {
    /** A retained message, its payload still JSON text. */
    public record KeyedMessage(long id, Instant createdAt, String routingKey, String messageKey, Long compactionRank,
                               int schemaVersion, String payload, String headersJson) {
    }

    private final Sql sql;

    public KeyQueries(Sql sql) {
        this.sql = sql;
    }

    /** The message the key's compaction head points at; empty when the key has no head or an empty one. */
    public Optional<KeyedMessage> compactionHead(Connection connection, long streamId, String key)
            throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("compaction_head", streamId))) {
            return query.bind("compaction_key", key).queryOne(KeyQueries::message);
        }
    }

    /** Creates the key's compaction-head row when it has none, and locks it until the transaction ends. */
    public void lockCompactionHead(Connection connection, long streamId, String key) throws SQLException {
        try (BoundStatement ensure = BoundStatement.prepare(connection,
                sql.streamStatement("ensure_compaction_row", streamId))) {
            ensure.bind("compaction_key", key).update();
        }
        try (BoundStatement lock = BoundStatement.prepare(connection,
                sql.streamStatement("lock_compaction_row", streamId))) {
            lock.bind("compaction_key", key).query().close();
        }
    }

    /** The key's retained messages, newest first, at most {@code limit}. */
    public List<KeyedMessage> messages(Connection connection, long streamId, String key, int limit)
            throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("messages_by_key", streamId))) {
            return query.bind("message_key", key).bind("row_limit", limit).queryList(KeyQueries::message);
        }
    }

    static KeyedMessage message(ResultSet row) throws SQLException {
        return new KeyedMessage(row.getLong("id"), row.getTimestamp("created_at").toInstant(),
                row.getString("routing_key"), row.getString("message_key"),
                row.getObject("compaction_rank", Long.class), row.getInt("schema_version"), row.getString("payload"),
                row.getString("headers"));
    }
}
