package io.sqlstreams.jakarta.config;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Renders the catalogue as Markdown: one table per layer, then the keys of a Reactive Messaging channel. */
final class ConfigurationReference {

    private ConfigurationReference() {
    }

    static String render() {
        List<PropertyDeclaration<?, ?>> all = Stream.of(SettingsCatalogue.groupProperties(),
                SettingsCatalogue.scheduleProperties(), SettingsCatalogue.globalProperties())
                .flatMap(List::stream).collect(Collectors.toList());
        StringBuilder markdown = new StringBuilder();
        for (Layer layer : Layer.values()) {
            markdown.append("\n### ").append(layer.title()).append("\n\n").append(layer.summary()).append("\n\n")
                    .append("| Property | Value | Default | Description |\n")
                    .append("| --- | --- | --- | --- |\n");
            all.stream().filter(property -> property.layer() == layer).forEach(property -> markdown
                    .append("| `").append(property.name()).append("` | ")
                    .append(property.kind().syntax()).append(" | ")
                    .append(shownDefault(property.defaultValue())).append(" | ")
                    .append(property.description()).append(" |\n"));
        }
        markdown.append("\n### Reactive Messaging channels\n\n")
                .append("The keys of a channel of the `sqlstreams` connector, after `mp.messaging.incoming.<channel>.` or")
                .append(" `mp.messaging.outgoing.<channel>.`; `mp.messaging.connector.sqlstreams.` sets a default for")
                .append(" every channel. An incoming channel also takes every ").append(Layer.GROUP_DECLARATION.title())
                .append(" and ").append(Layer.SESSION_OPTION.title()).append(" property above under its own name")
                .append(" (`mp.messaging.incoming.<channel>.message.timeout`); not the ")
                .append(Layer.GROUP_RUNTIME.title()).append(" ones, which the Reactive Messaging implementation")
                .append(" decides. A key nothing reads is a problem when it is within two edits of one of these")
                .append(" or lies under `message.`, `message-min.` or `message-max.`; any other is left to the")
                .append(" implementation (`broadcast`, `merge`, …).\n\n")
                .append("| Key | Value | Default | Description |\n")
                .append("| --- | --- | --- | --- |\n");
        for (ChannelKey key : ChannelKey.values()) {
            markdown.append("| `").append(key.key()).append("` | text | ").append(key.requirement()).append(" | ")
                    .append(key.description()).append(" |\n");
        }
        return markdown.append('\n').toString();
    }

    /** A bare value in code type; a default that is already phrased ({@code none (…)}, a formula) as written. */
    private static String shownDefault(String defaultValue) {
        boolean phrased = defaultValue.contains("`") || defaultValue.contains(" ")
                || List.of("none", "off").contains(defaultValue);
        return phrased ? defaultValue : "`" + defaultValue + "`";
    }
}
