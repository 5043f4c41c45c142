package io.sqlstreams.engine.operator;

import java.util.List;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.DeadLetterFilter;
import io.sqlstreams.MessageWhereabouts;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.Names;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.OperatorQueries;
import io.sqlstreams.engine.query.StreamQueries;

/** Finds where messages of one stream stand in each of its consumer groups, by id or by message key. */
public final class MessageLocator {
    private final Engine engine;
    private final String stream;
    private final OperatorQueries queries;

    public MessageLocator(Engine engine, String stream) {
        this.engine = engine;
        this.stream = stream;
        this.queries = new OperatorQueries(engine.sql());
    }

    public Optional<MessageWhereabouts> locate(long messageId) {
        if (messageId < 1) {
            throw new SqlStreamsException(Code.SQL0152, "a message id is 1 or more; got " + messageId);
        }
        return read(messageId, null, 1).stream().findFirst();
    }

    public List<MessageWhereabouts> locateKey(String messageKey, int limit) {
        if (messageKey == null) {
            throw new SqlStreamsException(Code.SQL0152, "a message key is required");
        }
        OperatorRequests.check(DeadLetterFilter.all().key(messageKey));
        return read(null, messageKey, OperatorRequests.limit(limit));
    }

    private List<MessageWhereabouts> read(Long messageId, String messageKey, int limit) {
        Names.resource("stream", stream);
        if (!engine.migrator().installed()) {
            throw StreamQueries.notFound(stream);
        }
        return engine.database().autoCommit("locating messages of stream " + stream, connection -> {
            long streamId = new StreamQueries(engine.sql()).require(connection, stream).id();
            return queries.locate(connection, streamId, messageId, messageKey, limit);
        });
    }
}
