package io.sqlstreams.jakarta.config;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.eclipse.microprofile.config.Config;

import io.sqlstreams.InvalidConfigurationException.Violation;

/**
 * Finds the mistyped keys of a channel. A channel's configuration also holds the Reactive Messaging
 * implementation's own attributes ({@code connector}, {@code broadcast}, {@code merge}, …), which cannot be told
 * from a key meant for something else; so a key nothing here reads is reported only when it is within two edits of
 * one of ours, or lies under {@code message.}, {@code message-min.} or {@code message-max.}, which are all ours.
 */
public final class ChannelKeyCheck {
    private static final List<String> OWN_PREFIXES = List.of("message.", "message-min.", "message-max.");
    private static final Set<String> KNOWN = known();

    private ChannelKeyCheck() {
    }

    /**
     * @param channel   the channel's configuration, its keys without prefix
     * @param keyPrefix the prefix the problems name the keys with: {@code mp.messaging.incoming.<channel>.}
     * @param problems  where each mistyped key goes
     */
    public static void check(Config channel, String keyPrefix, List<Violation> problems) {
        for (String name : sorted(channel.getPropertyNames())) {
            if (KNOWN.contains(name)) {
                continue;
            }
            var meant = SpellingSuggestion.closest(name, KNOWN);
            if (meant.isPresent() || OWN_PREFIXES.stream().anyMatch(name::startsWith)) {
                problems.add(new Violation(keyPrefix + name, channel.getConfigValue(name).getRawValue(),
                        "unknown key of a sqlstreams channel" + meant.map(key -> " (did you mean " + key + "?)")
                                .orElse("")));
            }
        }
    }

    private static Set<String> sorted(Iterable<String> names) {
        Set<String> all = new TreeSet<>();
        names.forEach(all::add);
        return all;
    }

    private static Set<String> known() {
        Set<String> all = new TreeSet<>();
        Stream.of(ChannelKey.values()).map(ChannelKey::key).forEach(all::add);
        SettingsCatalogue.groupProperties().stream().filter(ChannelGroupBinder::isChannelProperty)
                .map(PropertyDeclaration::name).forEach(all::add);
        return Set.copyOf(all);
    }
}
