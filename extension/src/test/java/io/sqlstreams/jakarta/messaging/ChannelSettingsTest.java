package io.sqlstreams.jakarta.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;

import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.SchemaVersion;

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

    @Test
    void anIncomingChannelNamesItsStreamGroupAndPayloadClass() {
        ChannelSettings settings = ChannelSettings.incoming(channel(Map.of("stream", "orders.placed",
                "group", "billing", "payload-type", Order.class.getName())));

        assertThat(settings).isEqualTo(new ChannelSettings("orders", "incoming", "orders.placed", "billing", Order.class));
    }

    @Test
    void anOutgoingChannelNeedsOnlyItsStream() {
        assertThat(ChannelSettings.outgoing(channel(Map.of("stream", "orders.placed"))))
                .isEqualTo(new ChannelSettings("orders", "outgoing", "orders.placed", null, null));
    }

    @Test
    void everyProblemOfAChannelIsReportedAtOnce() {
        assertThatThrownBy(() -> ChannelSettings.incoming(channel(Map.of("stream", "orders;drop",
                "payload-type", "com.example.Missing"))))
                .isInstanceOfSatisfying(InvalidConfigurationException.class, invalid -> {
                    assertThat(invalid.code().id()).isEqualTo("SQL0108");
                    assertThat(invalid.violations()).extracting(InvalidConfigurationException.Violation::property)
                            .containsExactly("mp.messaging.incoming.orders.stream",
                                    "mp.messaging.incoming.orders.group",
                                    "mp.messaging.incoming.orders.payload-type");
                    assertThat(invalid.getMessage()).contains("no such class in the application")
                            .contains("is required: the consumer group of the channel");
                });
    }

    @Test
    void aPayloadClassWithoutSchemaVersionIsRefused() {
        assertThatThrownBy(() -> ChannelSettings.incoming(channel(Map.of("stream", "orders.placed",
                "group", "billing", "payload-type", Unversioned.class.getName()))))
                .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("has no @SchemaVersion");
    }

    private static Config channel(Map<String, String> keys) {
        Map<String, String> all = new HashMap<>(keys);
        all.put("channel-name", "orders");
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(all, "channel", 100)).build();
    }
}
