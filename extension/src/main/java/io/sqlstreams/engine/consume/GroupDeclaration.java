package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.Start;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.binding.BindingPatterns;
import io.sqlstreams.engine.query.GroupQueries;
import io.sqlstreams.engine.query.StreamQueries;
import io.sqlstreams.engine.query.WorkerQueries;
import io.sqlstreams.engine.worker.WorkerDeclaration;
import jakarta.json.Json;
import jakarta.json.JsonObject;

/**
 * A consumer group's {@code register}: on first registration the group row and its cursor (placed by
 * {@link ConsumerConfig#start()}, read this once only); every time, the declaration written to the group's
 * {@code message_consumer} and {@code exception_consumer} worker rows, newest wins, and the group's
 * {@code cursor_advancer} row (target 1, empty document) inserted where missing, so an operator's target stays.
 * Declared bindings are offered once here; a session declares them again and waits until they are in place.
 */
final class GroupDeclaration {
    private final Engine engine;
    private final StreamQueries streams;
    private final GroupQueries groups;
    private final WorkerDeclaration workers;

    GroupDeclaration(Engine engine) {
        this.engine = engine;
        this.streams = new StreamQueries(engine.sql());
        this.groups = new GroupQueries(engine.sql());
        this.workers = new WorkerDeclaration(engine.sql(), engine.diagnostics(), engine.declarer());
    }

    /** The registered group: its id and its stream's. */
    RegisteredGroup register(String streamName, String groupName, ConsumerConfig config) {
        JsonObject document = GroupDocument.of(config);
        return engine.database().inTransaction("registering consumer group \"" + groupName + "\" on stream \""
                + streamName + "\"", connection -> {
            Stream stream = streams.require(connection, streamName);
            engine.migrator().checkStream(connection, stream.id(), streamName);
            Optional<Long> created = groups.insert(connection, stream.id(), groupName);
            long groupId = created.isPresent() ? created.get() : groups.lock(connection, stream.id(), groupName);
            if (created.isPresent()) {
                long committed = createCursor(connection, stream.id(), groupId, config.resolvedStart());
                engine.diagnostics().event(Code.SQL0116, "consumer group \"" + groupName + "\" registered (created) on stream \""
                        + streamName + "\" at " + config.resolvedStart().wireName() + ", committed=" + committed);
            }
            String subject = "consumer group \"" + groupName + "\" on stream \"" + streamName + "\"";
            workers.declareShared(connection, WorkerQueries.Owner.CONSUMER_GROUP, groupId, subject,
                    List.of(GroupRows.MESSAGE_CONSUMER, GroupRows.EXCEPTION_CONSUMER), document, -1);
            workers.declareMissing(connection, WorkerQueries.Owner.CONSUMER_GROUP, groupId, List.of(
                    new WorkerDeclaration.Row(GroupRows.CURSOR_ADVANCER, Json.createObjectBuilder().build(), 1)));
            engine.bindings().declare(connection, stream.id(), groupId, subject,
                    BindingPatterns.normalize(config.bindings() == null ? List.of() : config.bindings()), List.of());
            return new RegisteredGroup(stream.id(), stream.name(), groupId, groupName, stream.deliveryLogMode(),
                    stream.fenceWarnAfter());
        });
    }

    private long createCursor(Connection connection, long streamId, long groupId, Start start) throws SQLException {
        if (start == Start.HEAD) {
            return groups.insertCursorAtHead(connection, streamId, groupId);
        }
        groups.insertCursorAtBeginning(connection, streamId, groupId);
        return 0;
    }
}
