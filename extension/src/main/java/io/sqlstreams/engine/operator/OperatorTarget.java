package io.sqlstreams.engine.operator;

import java.sql.Connection;
import java.sql.SQLException;

import io.sqlstreams.Consumer;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.Names;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.ExceptionQueries;
import io.sqlstreams.engine.query.GroupQueries;
import io.sqlstreams.engine.query.StreamQueries;

/** The consumer group an operator verb acts on, by name: checked before any I/O, resolved when the verb runs. */
final class OperatorTarget {
    private final Engine engine;
    private final String stream;
    private final String group;

    OperatorTarget(Engine engine, String stream, String group) {
        this.engine = engine;
        this.stream = stream;
        this.group = group;
    }

    /** SQL0109 for a malformed name, SQL0005 when nothing is installed. */
    void checkNames() {
        Names.resource("stream", stream);
        Names.resource("consumer group", group);
        if (!engine.migrator().installed()) {
            throw StreamQueries.notFound(stream);
        }
    }

    /** The group's exception queue: SQL0005 for an unknown stream, SQL0014 for an unknown group. */
    ExceptionQueries.Queue resolve(Connection connection) throws SQLException {
        Stream owner = new StreamQueries(engine.sql()).require(connection, stream);
        Consumer consumer = new GroupQueries(engine.sql()).find(connection, stream, group)
                .orElseThrow(() -> GroupQueries.notFound(stream, group));
        return new ExceptionQueries.Queue(owner.id(), consumer.id(), owner.deliveryLogMode());
    }

    String describe() {
        return "consumer group " + group + " of stream " + stream;
    }
}
