package io.sqlstreams.engine.key;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.KeyHandle;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.StoredMessage;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.Names;
import io.sqlstreams.engine.HeadersDocument;
import io.sqlstreams.engine.query.KeyQueries;
import io.sqlstreams.engine.query.StreamQueries;
import io.sqlstreams.engine.sql.DatabaseFailures;
import jakarta.json.bind.JsonbException;

/** One message key of a stream: its compaction head, the head's lock, and its retained messages. */
public final class EngineKeyHandle<T> implements KeyHandle<T> {
    private final Engine engine;
    private final String streamName;
    private final Class<T> payloadType;
    private final String messageKey;
    private final StreamQueries rows;
    private final KeyQueries keys;

    public EngineKeyHandle(Engine engine, String streamName, Class<T> payloadType, String messageKey) {
        this.engine = engine;
        this.streamName = streamName;
        this.payloadType = payloadType;
        this.messageKey = messageKey;
        this.rows = new StreamQueries(engine.sql());
        this.keys = new KeyQueries(engine.sql());
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
                throw new SqlStreamsException(Code.SQL0132, "locking a compaction head needs a connection inside a"
                        + " transaction (auto-commit off)");
            }
            long streamId = stream(connection).id();
            keys.lockCompactionHead(connection, streamId, messageKey);
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
        return engine.database().autoCommit("reading messages of key \"" + messageKey + "\"", connection ->
                keys.messages(connection, stream(connection).id(), messageKey, limit).stream().map(this::decode)
                        .toList());
    }

    private void checkNames() {
        Names.resource("stream", streamName);
        Names.key("message key", messageKey);
        if (!engine.migrator().installed()) {
            throw StreamQueries.notFound(streamName);
        }
    }

    private Stream stream(Connection connection) throws SQLException {
        return rows.require(connection, streamName);
    }

    private Optional<StoredMessage<T>> head(Connection connection, long streamId) throws SQLException {
        return keys.compactionHead(connection, streamId, messageKey).map(this::decode);
    }

    private StoredMessage<T> decode(KeyQueries.KeyedMessage row) {
        T message;
        try {
            message = engine.codec().decode(row.payload(), payloadType);
        } catch (JsonbException failure) {
            throw new SqlStreamsException(Code.SQL0112, "message " + row.id() + " of stream \"" + streamName
                    + "\" cannot be decoded as " + payloadType.getName(), failure);
        }
        return new StoredMessage<>(row.id(), row.createdAt(), row.routingKey(), row.messageKey(),
                row.compactionRank(), row.schemaVersion(), message, HeadersDocument.fromJson(row.headersJson()));
    }
}
