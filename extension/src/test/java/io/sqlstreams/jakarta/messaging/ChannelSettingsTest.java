package io.sqlstreams.jakarta.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.sqlstreams.InvalidConfigurationException.Violation;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.jakarta.config.GroupAddress;

/**
 * A channel's configuration as the Reactive Messaging implementation hands it to the connector (the channel's keys
 * without their prefix, and {@code channel-name}): read when valid, every problem of the channel named otherwise.
 */
class ChannelSettingsTest {
    @SchemaVersion(1)
    public record Order(int n) {
    }

    public record Unversioned(int n) {
    }

    private final List<Violation> problems = new ArrayList<>();

    @Test
    void anIncomingChannelNamesItsStreamGroupAndPayloadClass() {
        ChannelSettings settings = ChannelSettings.incoming(channel(Map.of("stream", "orders.placed",
                "group", "billing", "payload-type", Order.class.getName())), problems);

        assertThat(problems).isEmpty();
        assertThat(settings).isEqualTo(new ChannelSettings("orders", "incoming", "orders.placed", "billing", Order.class));
        assertThat(settings.address()).isEqualTo(new GroupAddress("orders.placed", "billing"));
    }

    @Test
    void anOutgoingChannelNeedsOnlyItsStream() {
        assertThat(ChannelSettings.outgoing(channel(Map.of("stream", "orders.placed")), problems))
                .isEqualTo(new ChannelSettings("orders", "outgoing", "orders.placed", null, null));
        assertThat(problems).isEmpty();
    }

    @Test
    void everyProblemOfAChannelIsCollected() {
        ChannelSettings settings = ChannelSettings.incoming(channel(Map.of("stream", "orders;drop",
                "payload-type", "com.example.Missing")), problems);

        assertThat(problems).extracting(Violation::property).containsExactly("mp.messaging.incoming.orders.stream",
                "mp.messaging.incoming.orders.group", "mp.messaging.incoming.orders.payload-type");
        assertThat(problems).extracting(Violation::rule).anySatisfy(rule ->
                assertThat(rule).contains("no such class in the application")).anySatisfy(rule ->
                assertThat(rule).contains("is required: the consumer group of the channel"));
        assertThat(settings.address()).as("a missing name shows as unset")
                .isEqualTo(new GroupAddress("orders;drop", "(unset)"));
    }

    @Test
    void aPayloadClassWithoutSchemaVersionIsRefused() {
        ChannelSettings.incoming(channel(Map.of("stream", "orders.placed", "group", "billing",
                "payload-type", Unversioned.class.getName())), problems);

        assertThat(problems).extracting(Violation::rule).containsExactly("has no @SchemaVersion");
    }

    private static Config channel(Map<String, String> keys) {
        Map<String, String> all = new HashMap<>(keys);
        all.put("channel-name", "orders");
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(all, "channel", 100)).build();
    }
}
