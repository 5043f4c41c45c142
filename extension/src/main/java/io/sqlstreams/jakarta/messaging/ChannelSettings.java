package io.sqlstreams.jakarta.messaging;

import java.util.List;
import java.util.Optional;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.spi.ConnectorFactory;

import io.sqlstreams.InvalidConfigurationException.Violation;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.Names;
import io.sqlstreams.jakarta.config.ChannelKey;
import io.sqlstreams.jakarta.config.GroupAddress;

/**
 * One channel's configuration as the connector reads it ({@code mp.messaging.incoming|outgoing.<channel>.*}, with
 * {@code mp.messaging.connector.sqlstreams.*} defaults merged in by the Reactive Messaging implementation): the
 * stream, and for an incoming channel the group and the payload class. Problems are collected, not thrown, so that
 * the connector reports them with the channel's other problems in one SQL0108.
 */
record ChannelSettings(String channel, String direction, String stream, String group, Class<?> payloadType) {
    private static final String NO_NAME = "(unset)";

    static ChannelSettings incoming(Config config, List<Violation> problems) {
        return read(config, true, problems);
    }

    static ChannelSettings outgoing(Config config, List<Violation> problems) {
        return read(config, false, problems);
    }

    private static ChannelSettings read(Config config, boolean incoming, List<Violation> problems) {
        String channel = config.getOptionalValue(ConnectorFactory.CHANNEL_NAME_ATTRIBUTE, String.class)
                .orElse("(unnamed)");
        String direction = incoming ? "incoming" : "outgoing";
        String prefix = "mp.messaging." + direction + "." + channel + ".";
        String stream = name(config, ChannelKey.STREAM.key(), "stream", prefix, problems);
        String group = incoming ? name(config, ChannelKey.GROUP.key(), "consumer group", prefix, problems) : null;
        Class<?> payloadType = incoming ? payloadType(config, prefix, problems) : null;
        return new ChannelSettings(channel, direction, stream, group, payloadType);
    }

    /** The prefix of the channel's keys as the application writes them: {@code mp.messaging.incoming.<channel>.}. */
    String keyPrefix() {
        return "mp.messaging." + direction + "." + channel + ".";
    }

    /** The incoming channel's group; a name that is missing shows as {@code (unset)} in the problems. */
    GroupAddress address() {
        return new GroupAddress(stream == null ? NO_NAME : stream, group == null ? NO_NAME : group);
    }

    private static String name(Config config, String key, String what, String prefix, List<Violation> problems) {
        Optional<String> value = config.getOptionalValue(key, String.class);
        if (value.isEmpty()) {
            problems.add(new Violation(prefix + key, null, "is required: the " + what + " of the channel"));
            return null;
        }
        try {
            Names.resource(what, value.get());
        } catch (SqlStreamsException invalid) {
            problems.add(new Violation(prefix + key, value.get(), invalid.getMessage()));
        }
        return value.get();
    }

    private static Class<?> payloadType(Config config, String prefix, List<Violation> problems) {
        String key = ChannelKey.PAYLOAD_TYPE.key();
        Optional<String> name = config.getOptionalValue(key, String.class);
        if (name.isEmpty()) {
            problems.add(new Violation(prefix + key, null,
                    "is required: the class the channel's payloads decode to"));
            return null;
        }
        Class<?> type;
        try {
            type = Class.forName(name.get(), false, Thread.currentThread().getContextClassLoader());
        } catch (ClassNotFoundException | LinkageError missing) {
            problems.add(new Violation(prefix + key, name.get(), "no such class in the application"));
            return null;
        }
        if (!type.isAnnotationPresent(SchemaVersion.class)) {
            problems.add(new Violation(prefix + key, name.get(), "has no @SchemaVersion"));
        }
        return type;
    }
}
