package io.sqlstreams.engine.key;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.sqlstreams.engine.sql.DatabaseFailures;
import io.sqlstreams.Code;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.KeyHandle;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.StoredMessage;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.Engine;
import io.sqlstreams.engine.Names;
import io.sqlstreams.engine.stream.StreamRows;
import jakarta.json.bind.JsonbException;

/** One message key of a stream: its compaction head, the head's lock, and its retained messages. */
public final class EngineKeyHandle<T> implements KeyHandle<T> {
    private final Engine engine;
    private final String streamName;
    private final Class<T> payloadType;
    private final String messageKey;
    private final StreamRows rows;

    public EngineKeyHandle(Engine engine, String streamName, Class<T> payloadType, String messageKey) {
        this.engine = engine;
        this.streamName = streamName;
        this.payloadType = payloadType;
        this.messageKey = messageKey;
        this.rows = new StreamRows(engine.sql());
    }

    @Override
    public String messageKey() {
        return messageKey;
    }

    @Override
    public StoredMessage<T> compactionHead() {
        checkNames();
        return engine.database().autoCommit("reading the compaction head of key \"" + messageKey + "\"",
                connection -> head(connection, stream(connection).id()))
                .orElseThrow(() -> new SqlStreamsException(Code.SQL0066, "no compacted message was produced under key \""
                        + messageKey + "\" on stream \"" + streamName + "\""));
    }

    @Override
    public Optional<StoredMessage<T>> lockCompactionHead(Connection connection) {
        checkNames();
        try {
            if (connection.getAutoCommit()) {
                throw new SqlStreamsException(Code.SQL0108, "locking a compaction head needs a connection inside a"
                        + " transaction (auto-commit off)");
            }
            long streamId = stream(connection).id();
            try (PreparedStatement ensure = connection.prepareStatement(
                    engine.sql().forStream("ensure_compaction_row", streamId))) {
                ensure.setString(1, messageKey);
                ensure.executeUpdate();
            }
            try (PreparedStatement lock = connection.prepareStatement(
                    engine.sql().forStream("lock_compaction_row", streamId))) {
                lock.setString(1, messageKey);
                lock.executeQuery().close();
            }
            return head(connection, streamId);
        } catch (SQLException failure) {
            throw DatabaseFailures.translate("locking the compaction head of key \"" + messageKey + "\"", failure);
        }
    }

    @Override
    public List<StoredMessage<T>> messages(int limit) {
        checkNames();
        if (limit < 1) {
            throw new InvalidConfigurationException(List.of(
                    new InvalidConfigurationException.Violation("limit", limit, "must be positive")));
        }
        return engine.database().autoCommit("reading messages of key \"" + messageKey + "\"", connection -> {
            long streamId = stream(connection).id();
            try (PreparedStatement query = connection.prepareStatement(engine.sql().forStream("messages_by_key", streamId))) {
                query.setString(1, messageKey);
                query.setInt(2, limit);
                List<StoredMessage<T>> messages = new ArrayList<>();
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        messages.add(map(rows));
                    }
                }
                return messages;
            }
        });
    }

    private void checkNames() {
        Names.resource("stream", streamName);
        Names.key("message key", messageKey);
        if (!engine.migrator().installed()) {
            throw StreamRows.notFound(streamName);
        }
    }

    private Stream stream(Connection connection) throws SQLException {
        return rows.require(connection, streamName);
    }

    private Optional<StoredMessage<T>> head(Connection connection, long streamId) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(engine.sql().forStream("compaction_head", streamId))) {
            query.setString(1, messageKey);
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? Optional.of(map(row)) : Optional.empty();
            }
        }
    }

    private StoredMessage<T> map(ResultSet row) throws SQLException {
        long id = row.getLong(1);
        long rank = row.getLong(5);
        Long compactionRank = row.wasNull() ? null : rank;
        return new StoredMessage<>(id, row.getTimestamp(2).toInstant(), row.getString(3), row.getString(4),
                compactionRank, row.getInt(6), decode(id, row.getString(7)));
    }

    private T decode(long id, String json) {
        try {
            return engine.codec().decode(json, payloadType);
        } catch (JsonbException failure) {
            throw new SqlStreamsException(Code.SQL0112, "message " + id + " of stream \"" + streamName
                    + "\" cannot be decoded as " + payloadType.getName(), failure);
        }
    }
}
