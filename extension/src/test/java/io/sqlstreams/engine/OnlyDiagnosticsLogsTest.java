package io.sqlstreams.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Every log line is written by {@link Diagnostics}, which puts the code in front: no other main class holds a
 * logger or calls one.
 */
class OnlyDiagnosticsLogsTest {
    private static final Path MAIN_SOURCES = Path.of("src", "main", "java");
    private static final Path DIAGNOSTICS = Path.of("io", "sqlstreams", "engine", "Diagnostics.java");
    private static final List<Pattern> LOGGING = List.of(
            Pattern.compile("\\bLogger\\s+\\w+\\s*[;=,)]"),
            Pattern.compile("\\bgetLogger\\s*\\("),
            Pattern.compile("\\blogger\\(\\)\\s*\\.\\s*log"),
            Pattern.compile("\\.log\\s*\\(\\s*(System\\.Logger\\.)?Level\\."),
            Pattern.compile("\\bjava\\.util\\.logging\\b"),
            Pattern.compile("\\borg\\.slf4j\\b"));

    @Test
    void noMainClassButDiagnosticsLogs() throws IOException {
        List<Path> sources;
        try (Stream<Path> files = Files.walk(MAIN_SOURCES)) {
            sources = files.filter(file -> file.toString().endsWith(".java")).map(MAIN_SOURCES::relativize).toList();
        }
        assertThat(sources).as("the scan reads the module's main sources").contains(DIAGNOSTICS);
        List<String> offences = new ArrayList<>();
        for (Path source : sources) {
            if (!source.equals(DIAGNOSTICS)) {
                offences(read(MAIN_SOURCES.resolve(source))).forEach(line -> offences.add(source + ": " + line));
            }
        }
        assertThat(offences).as("classes that log around Diagnostics (use Diagnostics.event or debug with a code)")
                .isEmpty();
    }

    @Test
    void theScanFindsARawLoggerAndPassesCodedCalls() {
        assertThat(offences("""
                private static final System.Logger LOG = System.getLogger("x");
                engine.diagnostics().logger().log(System.Logger.Level.WARNING, "claim failed");
                logger.log(Level.INFO, "started");
                """)).hasSize(3);
        assertThat(offences("""
                import java.lang.System.Logger.Level;
                engine.diagnostics().event(Code.SQL0119, "claim of " + group.describe() + " failed");
                diagnostics.debug(Code.SQL0129, () -> what + " retried");
                // a comment that mentions logger().log(Level.INFO, ...)
                """)).isEmpty();
    }

    /** The code lines of {@code source} that hold or call a logger; comment lines are passed over. */
    private static List<String> offences(String source) {
        return source.lines()
                .map(String::strip)
                .filter(line -> !line.startsWith("//") && !line.startsWith("*") && !line.startsWith("/*"))
                .filter(line -> LOGGING.stream().anyMatch(pattern -> pattern.matcher(line).find()))
                .toList();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
    }
}
