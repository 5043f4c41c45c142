package io.sqlstreams;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The jar carries the license as META-INF/LICENSE: the parent pom's resources copy the repository's LICENSE into
 * target/classes/META-INF, which the jar is made of. Reads the copy beside this module's own classes, not the first
 * META-INF/LICENSE on the class path (dependencies carry theirs).
 */
class LicenseResourceTest {

    private static URL ownLicense() throws IOException {
        String classes = Code.class.getProtectionDomain().getCodeSource().getLocation().toString();
        List<URL> found = Collections.list(Code.class.getClassLoader().getResources("META-INF/LICENSE"));
        return found.stream()
                .filter(url -> url.toString().startsWith(classes) || url.toString().startsWith("jar:" + classes + "!"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no META-INF/LICENSE beside " + classes + " (found: " + found + ")"));
    }

    @Test
    void theModulesClassesCarryTheApacheLicense() throws IOException {
        String text;
        try (InputStream in = ownLicense().openStream()) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(text.strip()).startsWith("Apache License");
        assertThat(text).contains("Version 2.0, January 2004");
        assertThat(text).contains("TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION");
    }

    @Test
    void theCopyIsTheRepositorysLicenseVerbatim() throws IOException {
        Path repositoryLicense = Path.of(System.getProperty("basedir", ".")).resolve("../LICENSE");
        byte[] copy;
        try (InputStream in = ownLicense().openStream()) {
            copy = in.readAllBytes();
        }
        assertThat(copy).isEqualTo(Files.readAllBytes(repositoryLicense));
    }
}
