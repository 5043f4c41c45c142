package io.sqlstreams.engine.consume;

import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.engine.query.GroupIds;

/** A consumer group as a session needs it: the ids its statements use and how its stream audits deliveries. */
record RegisteredGroup(long streamId, String streamName, long groupId, String groupName,
                       DeliveryLogMode deliveryLogMode) {

    GroupIds ids() {
        return new GroupIds(streamId, groupId);
    }

    String describe() {
        return "consumer group \"" + groupName + "\" on stream \"" + streamName + "\"";
    }
}
