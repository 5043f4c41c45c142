package io.sqlstreams.engine.consume;

import java.time.Duration;

import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.engine.query.GroupIds;

/**
 * A consumer group as a session needs it: the ids its statements use, how its stream audits deliveries and how long
 * its fresh claims wait on an open producer before SQL0160 names it.
 */
record RegisteredGroup(long streamId, String streamName, long groupId, String groupName,
                       DeliveryLogMode deliveryLogMode, Duration fenceWarnAfter) {

    GroupIds ids() {
        return new GroupIds(streamId, groupId);
    }

    String describe() {
        return "consumer group \"" + groupName + "\" on stream \"" + streamName + "\"";
    }
}
