package io.sqlstreams.jakarta.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;

import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.jakarta.config.ChannelGroupBinder;
import io.sqlstreams.jakarta.config.GroupSettings;

/**
 * An incoming channel's group declaration and session options, from the channel's own keys under the names a
 * {@code @ConsumerGroup} group uses: bound when valid, every problem in one SQL0108 naming the channel's keys.
 */
class ChannelGroupBinderTest {
    private static final String PREFIX = "mp.messaging.incoming.payments.";

    @Test
    void theChannelsKeysDeclareTheGroupAndItsSession() {
        GroupSettings settings = ChannelGroupBinder.bind(channel(Map.of("message.timeout", "5s",
                "message.retry.max-retries", "2", "batch-limit", "50", "message-concurrency", "3")),
                "payments.requested", "charge-cards", PREFIX);

        assertThat(settings.declaration().message().timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(settings.declaration().message().retry().maxRetries()).isEqualTo(2);
        assertThat(settings.options().batchLimit()).isEqualTo(50);
        assertThat(settings.options().messageConcurrency()).isEqualTo(3);
    }

    @Test
    void noKeysMeanTheDefaults() {
        GroupSettings settings = ChannelGroupBinder.bind(channel(Map.of()), "payments.requested", "charge-cards",
                PREFIX);

        assertThat(settings.declaration().message()).isNull();
        assertThat(settings.options().batchLimit()).isNull();
    }

    @Test
    void everyBadValueIsNamedWithTheChannelsKey() {
        assertThatThrownBy(() -> ChannelGroupBinder.bind(channel(Map.of("message.timeout", "10x",
                "batch-limit", "-4")), "payments.requested", "charge-cards", PREFIX))
                .isInstanceOfSatisfying(InvalidConfigurationException.class, invalid -> {
                    assertThat(invalid.code().id()).isEqualTo("SQL0108");
                    assertThat(invalid.violations()).extracting(InvalidConfigurationException.Violation::property)
                            .containsExactlyInAnyOrder(PREFIX + "message.timeout", PREFIX + "batch-limit");
                    assertThat(invalid.getMessage()).contains("must be a duration").contains("must be at least 1");
                });
    }

    private static Config channel(Map<String, String> keys) {
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(keys, "channel", 100)).build();
    }
}
