package io.sqlstreams.jakarta.config;

import java.util.List;
import java.util.Optional;

import org.eclipse.microprofile.config.Config;

import io.sqlstreams.InvalidConfigurationException.Violation;

/**
 * The group declaration and session options of a Reactive Messaging channel: the same properties as under
 * {@code sqlstreams.groups."<group>".} ({@code message.timeout}, {@code message.retry.max-retries},
 * {@code batch-limit}, …), read from the channel's own keys, which the implementation hands over without their
 * prefix and with the connector's defaults merged in. The group runtime properties ({@code enabled},
 * {@code executor}) are not a channel's: the Reactive Messaging implementation decides whether and where it runs.
 */
public final class ChannelGroupBinder {
    private ChannelGroupBinder() {
    }

    /**
     * @param channel   the channel's configuration, its keys without prefix
     * @param keyPrefix the prefix the problems name the keys with: {@code mp.messaging.incoming.<channel>.}
     * @param problems  where every bad value goes, as a violation naming the channel's key
     */
    public static GroupSettings bind(Config channel, GroupAddress address, String keyPrefix,
                                     List<Violation> problems) {
        ProblemLog found = new ProblemLog();
        PropertyReader reader = new PropertyReader(channel, found);
        GroupSettings settings = GroupBinder.bind(address,
                (PropertyDeclaration<GroupDraft, ?> declaration) -> isChannelProperty(declaration)
                        ? reader.read(declaration, declaration.name(), List.of(address)) : Optional.empty(),
                property -> property, new ViolationProblems(found));
        found.problems().forEach(problem -> problems.add(new Violation(keyPrefix + problem.property(),
                channel.getConfigValue(problem.property()).getRawValue(), problem.message())));
        return settings;
    }

    static boolean isChannelProperty(PropertyDeclaration<GroupDraft, ?> declaration) {
        return declaration.layer() == Layer.GROUP_DECLARATION || declaration.layer() == Layer.SESSION_OPTION;
    }
}
