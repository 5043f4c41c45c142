package io.sqlstreams.jakarta;

import io.sqlstreams.jakarta.config.GroupAddress;
import jakarta.enterprise.inject.spi.ObserverMethod;

/**
 * One {@code @ConsumerGroup} observer method found at deployment: the group it handles, the method, and the
 * payload type it observes.
 */
record ObservedGroup(GroupAddress address, ObserverMethod<?> observer, Class<?> payloadType) {

    String describe() {
        return "group \"" + address.group() + "\" on stream \"" + address.stream() + "\" ("
                + observer.getBeanClass().getName() + ")";
    }
}
