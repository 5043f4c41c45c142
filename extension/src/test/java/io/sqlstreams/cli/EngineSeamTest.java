package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The tool reaches the engine through its client and the seams made for it ({@code engine.system.InstallationDdl}),
 * never through the plumbing below them: read from the sources, no CLI file names {@code engine.sql},
 * {@code engine.query} or {@code engine.schema}, in an import or anywhere else.
 */
class EngineSeamTest {
    private static final Path SOURCES = Path.of("src/main/java/io/sqlstreams/cli");
    private static final Pattern PLUMBING = Pattern.compile("io\\.sqlstreams\\.engine\\.(?:sql|query|schema)\\.");

    @Test
    void cliSourcesNameNoEnginePlumbing() throws IOException {
        List<Path> sources;
        try (Stream<Path> files = Files.walk(SOURCES)) {
            sources = files.filter(path -> path.toString().endsWith(".java")).toList();
        }
        assertThat(sources).as("CLI sources under " + SOURCES.toAbsolutePath()).hasSizeGreaterThan(10);
        assertThat(sources.stream().filter(EngineSeamTest::namesPlumbing).map(path -> path.getFileName().toString()))
                .as("CLI sources naming engine.sql, engine.query or engine.schema").isEmpty();
    }

    private static boolean namesPlumbing(Path source) {
        try {
            return PLUMBING.matcher(Files.readString(source)).find();
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
    }
}
