package io.sqlstreams.jakarta.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.sqlstreams.InvalidConfigurationException.Violation;
import io.sqlstreams.jakarta.config.ChannelGroupBinder;
import io.sqlstreams.jakarta.config.ChannelKeyCheck;
import io.sqlstreams.jakarta.config.GroupAddress;
import io.sqlstreams.jakarta.config.GroupSettings;

/**
 * An incoming channel's group declaration and session options, from the channel's own keys under the names a
 * {@code @ConsumerGroup} group uses: bound when valid, every bad value and mistyped key named with the channel's key.
 */
class ChannelGroupBinderTest {
    private static final String PREFIX = "mp.messaging.incoming.payments.";
    private static final GroupAddress GROUP = new GroupAddress("payments.requested", "charge-cards");

    private final List<Violation> problems = new ArrayList<>();

    @Test
    void theChannelsKeysDeclareTheGroupAndItsSession() {
        GroupSettings settings = ChannelGroupBinder.bind(channel(Map.of("message.timeout", "5s",
                "message.retry.max-retries", "2", "batch-limit", "50", "message-concurrency", "3")), GROUP, PREFIX,
                problems);

        assertThat(problems).isEmpty();
        assertThat(settings.declaration().message().timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(settings.declaration().message().retry().maxRetries()).isEqualTo(2);
        assertThat(settings.options().batchLimit()).isEqualTo(50);
        assertThat(settings.options().messageConcurrency()).isEqualTo(3);
    }

    @Test
    void noKeysMeanTheDefaults() {
        GroupSettings settings = ChannelGroupBinder.bind(channel(Map.of()), GROUP, PREFIX, problems);

        assertThat(problems).isEmpty();
        assertThat(settings.declaration().message()).isNull();
        assertThat(settings.options().batchLimit()).isNull();
    }

    @Test
    void theGroupRuntimeKeysAreLeftToTheImplementation() {
        GroupSettings settings = ChannelGroupBinder.bind(channel(Map.of("enabled", "not-a-boolean",
                "executor", "java:comp/Other")), GROUP, PREFIX, problems);

        assertThat(problems).isEmpty();
        assertThat(settings.enabled()).isTrue();
    }

    @Test
    void everyBadValueIsNamedWithTheChannelsKey() {
        ChannelGroupBinder.bind(channel(Map.of("message.timeout", "10x", "batch-limit", "-4")), GROUP, PREFIX,
                problems);

        assertThat(problems).extracting(Violation::property)
                .containsExactlyInAnyOrder(PREFIX + "message.timeout", PREFIX + "batch-limit");
        assertThat(problems).extracting(Violation::rule)
                .anySatisfy(rule -> assertThat(rule).contains("must be a duration"))
                .anySatisfy(rule -> assertThat(rule).contains("must be at least 1"));
        assertThat(problems).extracting(Violation::value).containsExactlyInAnyOrder("10x", "-4");
    }

    @Test
    void aMistypedKeyIsNamedWithWhatWasMeant() {
        ChannelKeyCheck.check(channel(Map.of("message.timout", "5s", "batch-limt", "8", "strem", "payments",
                "message-max.retry.anything", "1", "message.timeout", "5s")), PREFIX, problems);

        assertThat(problems).extracting(Violation::property).containsExactly(PREFIX + "batch-limt",
                PREFIX + "message-max.retry.anything", PREFIX + "message.timout", PREFIX + "strem");
        assertThat(problems).extracting(Violation::rule).containsExactly(
                "unknown key of a sqlstreams channel (did you mean batch-limit?)",
                "unknown key of a sqlstreams channel",
                "unknown key of a sqlstreams channel (did you mean message.timeout?)",
                "unknown key of a sqlstreams channel (did you mean stream?)");
    }

    @Test
    void theImplementationsOwnAttributesAreNotMistakes() {
        ChannelKeyCheck.check(channel(Map.of("connector", "sqlstreams", "channel-name", "payments",
                "broadcast", "true", "merge", "true", "enabled", "true", "tracing-enabled", "false",
                "stream", "payments.requested", "group", "charge-cards", "payload-type", "com.acme.Payment")),
                PREFIX, problems);

        assertThat(problems).isEmpty();
    }

    private static Config channel(Map<String, String> keys) {
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(keys, "channel", 100)).build();
    }
}
