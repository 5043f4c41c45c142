package io.sqlstreams.jakarta.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/configuration.md} holds the reference table generated from {@link SettingsCatalogue}. After
 * changing the catalogue, regenerate it with
 * {@code mvn -o -q -pl extension test -Dtest=ConfigurationReferenceTest -DupdateConfigurationReference=true}.
 */
class ConfigurationReferenceTest {
    private static final String UPDATE_PROPERTY = "updateConfigurationReference";
    private static final String BEGIN = "<!-- BEGIN reference generated from SettingsCatalogue -->";
    private static final String END = "<!-- END reference generated from SettingsCatalogue -->";

    @Test
    void theDocumentedReferenceIsTheOneTheCatalogueGenerates() throws IOException {
        Path document = document();
        String text = Files.readString(document, StandardCharsets.UTF_8);
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        assertThat(begin).as("%s holds the marker %s", document, BEGIN).isNotNegative();
        assertThat(end).as("%s holds the marker %s after the first one", document, END).isGreaterThan(begin);
        String regenerated = text.substring(0, begin + BEGIN.length()) + "\n" + ConfigurationReference.render()
                + text.substring(end);

        if (Boolean.getBoolean(UPDATE_PROPERTY)) {
            Files.writeString(document, regenerated, StandardCharsets.UTF_8);
        }
        assertThat(Files.readString(document, StandardCharsets.UTF_8)).as("%s is out of date with SettingsCatalogue; regenerate it with"
                        + " mvn -o -q -pl extension test -Dtest=ConfigurationReferenceTest -D%s=true",
                document, UPDATE_PROPERTY)
                .isEqualTo(regenerated);
    }

    @Test
    void everyPropertyHasADescriptionAndADefault() {
        Stream.concat(SettingsCatalogue.groupProperties().stream(), SettingsCatalogue.globalProperties().stream())
                .forEach(property -> assertThat(List.of(property.description(), property.defaultValue()))
                        .as(property.name()).allSatisfy(text -> assertThat(text).isNotBlank()));
    }

    /** The repository's docs/configuration.md, found from the module (Maven's working directory) or the root. */
    private static Path document() {
        Path here = Path.of("").toAbsolutePath();
        return Stream.iterate(here, path -> path != null, Path::getParent)
                .filter(path -> Stream.of("api", "extension").allMatch(module -> Files.isDirectory(path.resolve(module))))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no repository root above " + here))
                .resolve("docs/configuration.md");
    }
}
