package io.sqlstreams.jakarta.messaging;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.spi.ConnectorFactory;

import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.InvalidConfigurationException.Violation;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.Names;

/**
 * One channel's configuration as the connector reads it ({@code mp.messaging.incoming|outgoing.<channel>.*}, with
 * {@code mp.messaging.connector.sqlstreams.*} defaults merged in by the Reactive Messaging implementation): the
 * stream, and for an incoming channel the group and the payload class. Every problem of a channel is reported at
 * once, as SQL0108.
 */
record ChannelSettings(String channel, String direction, String stream, String group, Class<?> payloadType) {
    static final String STREAM = "stream";
    static final String GROUP = "group";
    static final String PAYLOAD_TYPE = "payload-type";

    static ChannelSettings incoming(Config config) {
        return read(config, true);
    }

    static ChannelSettings outgoing(Config config) {
        return read(config, false);
    }

    private static ChannelSettings read(Config config, boolean incoming) {
        String channel = config.getOptionalValue(ConnectorFactory.CHANNEL_NAME_ATTRIBUTE, String.class)
                .orElse("(unnamed)");
        String direction = incoming ? "incoming" : "outgoing";
        String prefix = "mp.messaging." + direction + "." + channel + ".";
        List<Violation> problems = new ArrayList<>();
        String stream = name(config, STREAM, "stream", prefix, problems);
        String group = incoming ? name(config, GROUP, "consumer group", prefix, problems) : null;
        Class<?> payloadType = incoming ? payloadType(config, prefix, problems) : null;
        if (!problems.isEmpty()) {
            throw new InvalidConfigurationException(problems);
        }
        return new ChannelSettings(channel, direction, stream, group, payloadType);
    }

    /** The prefix of the channel's keys as the application writes them: {@code mp.messaging.incoming.<channel>.}. */
    String keyPrefix() {
        return "mp.messaging." + direction + "." + channel + ".";
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
        Optional<String> name = config.getOptionalValue(PAYLOAD_TYPE, String.class);
        if (name.isEmpty()) {
            problems.add(new Violation(prefix + PAYLOAD_TYPE, null,
                    "is required: the class the channel's payloads decode to"));
            return null;
        }
        Class<?> type;
        try {
            type = Class.forName(name.get(), false, Thread.currentThread().getContextClassLoader());
        } catch (ClassNotFoundException | LinkageError missing) {
            problems.add(new Violation(prefix + PAYLOAD_TYPE, name.get(), "no such class in the application"));
            return null;
        }
        if (!type.isAnnotationPresent(SchemaVersion.class)) {
            problems.add(new Violation(prefix + PAYLOAD_TYPE, name.get(), "has no @SchemaVersion"));
        }
        return type;
    }
}
