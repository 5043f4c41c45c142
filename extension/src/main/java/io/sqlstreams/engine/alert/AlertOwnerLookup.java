package io.sqlstreams.engine.alert;

import java.sql.Connection;
import java.sql.SQLException;

import io.sqlstreams.AlertOwner;
import io.sqlstreams.engine.Names;
import io.sqlstreams.engine.query.GroupQueries;
import io.sqlstreams.engine.query.StreamQueries;

/**
 * Finds the owner an alerts handle is about when a verb runs: the system, a stream (SQL0005 when it is not
 * registered) or a consumer group (SQL0005 / SQL0014). Names are checked first (SQL0109).
 */
public final class AlertOwnerLookup {
    private final StreamQueries streams;
    private final GroupQueries groups;
    private final String stream;
    private final String group;

    private AlertOwnerLookup(StreamQueries streams, GroupQueries groups, String stream, String group) {
        this.streams = streams;
        this.groups = groups;
        this.stream = stream;
        this.group = group;
    }

    public static AlertOwnerLookup system() {
        return new AlertOwnerLookup(null, null, null, null);
    }

    public static AlertOwnerLookup stream(StreamQueries streams, String stream) {
        return new AlertOwnerLookup(streams, null, stream, null);
    }

    public static AlertOwnerLookup consumerGroup(StreamQueries streams, GroupQueries groups, String stream,
                                                 String group) {
        return new AlertOwnerLookup(streams, groups, stream, group);
    }

    /** Checks the names; with no installation, fails as a missing owner would (the system is never missing). */
    void checkBeforeReading(boolean installed) {
        if (stream == null) {
            return;
        }
        Names.resource("stream", stream);
        if (group != null) {
            Names.resource("consumer group", group);
        }
        if (!installed) {
            throw StreamQueries.notFound(stream);
        }
    }

    AlertOwner find(Connection connection) throws SQLException {
        if (stream == null) {
            return AlertOwner.system();
        }
        if (group == null) {
            return streams.find(connection, stream).map(found -> AlertOwner.stream(found.id(), found.name()))
                    .orElseThrow(() -> StreamQueries.notFound(stream));
        }
        streams.require(connection, stream);
        return groups.find(connection, stream, group)
                .map(found -> AlertOwner.consumerGroup(found.id(), stream, group))
                .orElseThrow(() -> GroupQueries.notFound(stream, group));
    }

    AlertOwner.Kind kind() {
        return stream == null ? AlertOwner.Kind.SYSTEM
                : group == null ? AlertOwner.Kind.STREAM : AlertOwner.Kind.CONSUMER_GROUP;
    }
}
