package io.sqlstreams.jakarta.config;

import java.util.Objects;

/**
 * One deployed consumer group: a group name is unique per stream, not per application.
 *
 * @param stream the stream's name
 * @param group  the group's name
 */
public record GroupAddress(String stream, String group) {

    public GroupAddress {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(group, "group");
    }

    /** The stream-qualified spelling used in configuration keys: {@code <stream>/<group>}. */
    public String qualifiedName() {
        return stream + "/" + group;
    }

    @Override
    public String toString() {
        return qualifiedName();
    }
}
