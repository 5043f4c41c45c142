package io.sqlstreams;

/**
 * What an alert is about: the installation, one stream or one consumer group. An alert is keyed by its owner's id,
 * so it follows a rename; the names here are the owner's names when the alert was recorded.
 *
 * @param kind   system, stream or consumer group
 * @param id     the owner's row id; 0 for the system
 * @param stream the stream's name; null for the system
 * @param group  the group's name; null unless the owner is a consumer group
 */
public record AlertOwner(Kind kind, long id, String stream, String group) {

    public enum Kind {
        SYSTEM,
        STREAM,
        CONSUMER_GROUP
    }

    public static AlertOwner system() {
        return new AlertOwner(Kind.SYSTEM, 0, null, null);
    }

    public static AlertOwner stream(long id, String stream) {
        return new AlertOwner(Kind.STREAM, id, stream, null);
    }

    public static AlertOwner consumerGroup(long id, String stream, String group) {
        return new AlertOwner(Kind.CONSUMER_GROUP, id, stream, group);
    }
}
