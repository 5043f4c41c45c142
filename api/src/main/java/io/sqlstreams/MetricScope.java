package io.sqlstreams;

import java.util.List;

/** What one series of a built-in metric describes, and the attributes that identify it. */
public enum MetricScope implements WireNamed {
    /** The installation as a whole (the alert checks' series add {@code alert}). */
    SYSTEM("system", List.of()),
    /** One stream. */
    STREAM("stream", List.of("stream")),
    /** One consumer group of a stream. */
    CONSUMER_GROUP("consumer_group", List.of("stream", "group")),
    /** One consume session of a group. */
    CONSUMER_SESSION("consumer_session", List.of("stream", "group", "version", "session")),
    /** An exporter's own health, added when it exports; never stored. */
    EXPORTER("exporter", List.of());

    private final String wireName;
    private final List<String> attributes;

    MetricScope(String wireName, List<String> attributes) {
        this.wireName = wireName;
        this.attributes = attributes;
    }

    @Override
    public String wireName() {
        return wireName;
    }

    /** The attribute keys every series of this scope carries. */
    public List<String> attributes() {
        return attributes;
    }
}
