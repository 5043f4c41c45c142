package io.sqlstreams.jakarta;

import io.sqlstreams.jakarta.config.GroupAddress;
import jakarta.enterprise.inject.spi.ObserverMethod;

/**
 * One {@code @ConsumerGroup} observer method found at deployment: the group it handles, the method, the payload type
 * it observes, and whether it is {@code @Transactional} (its writes commit with each message's outcome).
 */
record ObservedGroup(GroupAddress address, ObserverMethod<?> observer, Class<?> payloadType, boolean transactional) {

    String describe() {
        return "group \"" + address.group() + "\" on stream \"" + address.stream() + "\" ("
                + observer.getBeanClass().getName() + ")";
    }
}
