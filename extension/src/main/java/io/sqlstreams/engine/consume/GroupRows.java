package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.sql.SQLException;

import io.sqlstreams.Code;
import io.sqlstreams.Consumer;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.query.GroupQueries;
import io.sqlstreams.engine.query.WorkerQueries;
import io.sqlstreams.engine.sql.Sql;

/** A consumer group's row required by name, and the declaration stored on its workers. */
final class GroupRows {
    static final String MESSAGE_CONSUMER = "message_consumer";
    static final String EXCEPTION_CONSUMER = "exception_consumer";
    static final String CURSOR_ADVANCER = "cursor_advancer";

    private final GroupQueries groups;
    private final WorkerQueries workers;

    GroupRows(Sql sql) {
        this.groups = new GroupQueries(sql);
        this.workers = new WorkerQueries(sql);
    }

    Consumer require(Connection connection, String stream, String group) throws SQLException {
        return groups.find(connection, stream, group).orElseThrow(() -> GroupQueries.notFound(stream, group));
    }

    /** The stored declaration document of the group's message consumer, or null before the first register. */
    String declaration(Connection connection, long groupId) throws SQLException {
        return workers.find(connection, WorkerQueries.Owner.CONSUMER_GROUP, groupId, MESSAGE_CONSUMER)
                .map(WorkerQueries.Declared::metadata).orElse(null);
    }
}
