package io.sqlstreams.jakarta.config;

import java.util.List;

import org.eclipse.microprofile.config.Config;

import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.InvalidConfigurationException.Violation;

/**
 * The group declaration and session options of a Reactive Messaging channel: the same properties as under
 * {@code sqlstreams.groups."<group>".} ({@code message.timeout}, {@code message.retry.max-retries},
 * {@code batch-limit}, …), read from the channel's own keys, which the implementation hands over without their
 * prefix and with the connector's defaults merged in. Every problem is one violation of a single SQL0108.
 */
public final class ChannelGroupBinder {
    private ChannelGroupBinder() {
    }

    /**
     * @param channel   the channel's configuration, its keys without prefix
     * @param keyPrefix the prefix the problems name the keys with: {@code mp.messaging.incoming.<channel>.}
     */
    public static GroupSettings bind(Config channel, String stream, String group, String keyPrefix) {
        ProblemLog problems = new ProblemLog();
        PropertyReader reader = new PropertyReader(channel, problems);
        GroupAddress address = new GroupAddress(stream, group);
        GroupSettings settings = GroupBinder.bind(address,
                (PropertyDeclaration<GroupDraft, ?> declaration) -> reader.read(declaration, declaration.name(),
                        List.of(address)),
                property -> property, new ViolationProblems(problems));
        if (!problems.problems().isEmpty()) {
            throw new InvalidConfigurationException(problems.problems().stream()
                    .map(problem -> new Violation(keyPrefix + problem.property(),
                            channel.getConfigValue(problem.property()).getRawValue(), problem.message()))
                    .toList());
        }
        return settings;
    }
}
