package io.sqlstreams.jakarta.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code docs/configuration.md} and the README hold the reference table generated from {@link SettingsCatalogue}.
 * After changing the catalogue, regenerate both with
 * {@code mvn -o -q -pl extension test -Dtest=ConfigurationReferenceTest -DupdateConfigurationReference=true}.
 */
class ConfigurationReferenceTest {
    private static final String UPDATE_PROPERTY = "updateConfigurationReference";
    private static final String BEGIN = "<!-- BEGIN reference generated from SettingsCatalogue -->";
    private static final String END = "<!-- END reference generated from SettingsCatalogue -->";

    @ParameterizedTest
    @ValueSource(strings = {"docs/configuration.md", "README.md"})
    void theDocumentedReferenceIsTheOneTheCatalogueGenerates(String file) throws IOException {
        Path document = repositoryRoot().resolve(file);
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
        assertThat(Files.readString(document, StandardCharsets.UTF_8))
                .as("%s is out of date with SettingsCatalogue; regenerate it with mvn -o -q -pl extension test"
                        + " -Dtest=ConfigurationReferenceTest -D%s=true", document, UPDATE_PROPERTY)
                .isEqualTo(regenerated);
    }

    @Test
    void everyPropertyHasADescriptionAndADefault() {
        Stream.of(SettingsCatalogue.groupProperties(), SettingsCatalogue.scheduleProperties(),
                        SettingsCatalogue.globalProperties()).flatMap(List::stream)
                .forEach(property -> assertThat(List.of(property.description(), property.defaultValue()))
                        .as(property.name()).allSatisfy(text -> assertThat(text).isNotBlank()));
    }

    /** The repository's root, found from the module (Maven's working directory) or the root itself. */
    private static Path repositoryRoot() {
        Path here = Path.of("").toAbsolutePath();
        return Stream.iterate(here, path -> path != null, Path::getParent)
                .filter(path -> Stream.of("api", "extension").allMatch(module -> Files.isDirectory(path.resolve(module))))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no repository root above " + here));
    }
}
