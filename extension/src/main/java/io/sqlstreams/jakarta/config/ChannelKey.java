package io.sqlstreams.jakarta.config;

/**
 * The keys of a Reactive Messaging channel of the {@code sqlstreams} connector that are not group properties: where
 * the channel reads or writes, and as which group and payload class. An incoming channel also takes every group
 * declaration and session property under its own name.
 */
public enum ChannelKey {
    STREAM("stream", "required",
            "The stream an incoming channel reads or an outgoing channel produces to; registered with the defaults"
                    + " when the channel opens and finds it absent."),
    GROUP("group", "required (incoming)",
            "The consumer group an incoming channel is a session of; registered when absent."),
    PAYLOAD_TYPE("payload-type", "required (incoming)",
            "The class (with `@SchemaVersion`) an incoming channel's payloads decode to, loaded from the application."
                    + " An outgoing channel produces each payload as its own class.");

    private final String key;
    private final String requirement;
    private final String description;

    ChannelKey(String key, String requirement, String description) {
        this.key = key;
        this.requirement = requirement;
        this.description = description;
    }

    /** The key after {@code mp.messaging.incoming|outgoing.<channel>.}. */
    public String key() {
        return key;
    }

    String requirement() {
        return requirement;
    }

    String description() {
        return description;
    }
}
