package io.sqlstreams.jakarta.config;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Renders the catalogue as Markdown: one table per layer. */
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
        return markdown.append('\n').toString();
    }

    /** A bare value in code type; a default that is already phrased ({@code none (…)}, a formula) as written. */
    private static String shownDefault(String defaultValue) {
        boolean phrased = defaultValue.contains("`") || defaultValue.contains(" ")
                || List.of("none", "off").contains(defaultValue);
        return phrased ? defaultValue : "`" + defaultValue + "`";
    }
}
