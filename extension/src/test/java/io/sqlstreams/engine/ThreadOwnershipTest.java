package io.sqlstreams.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Every thread of the library comes from {@link EngineThreads}: read from the sources, nothing else creates a thread
 * or a thread pool of its own, and an executor built elsewhere takes its threads from an {@code EngineThreads}
 * factory. So a server's managed thread factory is used everywhere it is given, and every thread has a name.
 */
class ThreadOwnershipTest {
    private static final Path SOURCES = Path.of("src/main/java");
    private static final Pattern MAKES_THREADS = Pattern.compile("new Thread\\(|Thread\\.of(?:Platform|Virtual)"
            + "|Executors\\.(?:new|default)|new (?:Scheduled)?ThreadPoolExecutor\\(|new ForkJoinPool|ForkJoinPool"
            + "\\.commonPool|(?:run|supply)Async\\(");
    private static final Pattern FROM_ENGINE_THREADS = Pattern.compile("EngineThreads\\.daemons\\(|threads\\.named\\(");

    @Test
    void onlyEngineThreadsMakesThreads() throws IOException {
        List<String> elsewhere = new ArrayList<>();
        try (Stream<Path> sources = Files.walk(SOURCES)) {
            for (Path source : sources.filter(path -> path.toString().endsWith(".java")).toList()) {
                if (source.getFileName().toString().equals("EngineThreads.java")) {
                    continue;
                }
                List<String> lines = Files.readAllLines(source);
                for (int i = 0; i < lines.size(); i++) {
                    String statement = i + 1 < lines.size() ? lines.get(i) + lines.get(i + 1) : lines.get(i);
                    if (MAKES_THREADS.matcher(lines.get(i)).find() && !FROM_ENGINE_THREADS.matcher(statement).find()) {
                        elsewhere.add(SOURCES.relativize(source) + ":" + (i + 1) + ": " + lines.get(i).strip());
                    }
                }
            }
        }
        assertThat(elsewhere).as("threads made outside EngineThreads").isEmpty();
    }
}
