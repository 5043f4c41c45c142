package io.sqlstreams.engine.query;

/** The ids that address one consumer group's rows: its stream's table family and the group within it. */
public record GroupIds(long streamId, long groupId) {
}
