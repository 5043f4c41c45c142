package io.sqlstreams.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The engine's packages form layers: the client and the handles above, row access below, and at the bottom the
 * root package (diagnostics, environment, names), which imports no other engine package. Read from the sources:
 * an import of another engine package is an edge, and no chain of edges may lead back to where it started. A
 * sub-package (`metrics.collector`) is a package of its own here, as it is to Java.
 */
class PackageLayersTest {
    private static final Path SOURCES = Path.of("src/main/java/io/sqlstreams/engine");
    private static final String ROOT = "(root)";
    private static final Pattern IMPORT = Pattern.compile(
            "^import (?:static )?io\\.sqlstreams\\.engine\\.(?:([a-z]+(?:\\.[a-z]+)*)\\.)?[A-Z]", Pattern.MULTILINE);

    @Test
    void enginePackagesImportEachOtherWithoutACycle() throws IOException {
        Map<String, Set<String>> imports = imports();
        assertThat(imports).as("engine sub-packages found under " + SOURCES.toAbsolutePath())
                .containsKeys(ROOT, "client", "consume", "query", "sql", "stream");
        List<String> cycles = new ArrayList<>();
        for (String start : imports.keySet()) {
            pathBack(start, start, imports, new ArrayList<>(List.of(start)), new HashSet<>(), cycles);
        }
        assertThat(cycles).as("import cycles between engine packages").isEmpty();
    }

    @Test
    void theRootTheQueryLayerAndTheSqlPlumbingImportNothingAboveThem() throws IOException {
        Map<String, Set<String>> imports = imports();
        assertThat(imports.get(ROOT)).as("the root package's imports").isSubsetOf("codec");
        assertThat(imports.get("sql")).as("engine.sql imports").containsOnly(ROOT);
        assertThat(imports.get("query")).as("engine.query imports").isSubsetOf(ROOT, "sql");
    }

    private static void pathBack(String start, String at, Map<String, Set<String>> imports, List<String> path,
                                 Set<String> seen, List<String> cycles) {
        for (String next : imports.getOrDefault(at, Set.of())) {
            if (next.equals(start)) {
                cycles.add(String.join(" -> ", path) + " -> " + start);
            } else if (seen.add(next)) {
                path.add(next);
                pathBack(start, next, imports, path, seen, cycles);
                path.remove(path.size() - 1);
            }
        }
    }

    private static Map<String, Set<String>> imports() throws IOException {
        Map<String, Set<String>> imports = new TreeMap<>();
        try (Stream<Path> sources = Files.walk(SOURCES)) {
            for (Path source : sources.filter(path -> path.toString().endsWith(".java")).toList()) {
                Path directory = SOURCES.relativize(source.getParent());
                String name = directory.toString().isEmpty() ? ROOT : directory.toString().replace('/', '.');
                Set<String> used = imports.computeIfAbsent(name, key -> new TreeSet<>());
                Matcher matcher = IMPORT.matcher(Files.readString(source));
                while (matcher.find()) {
                    String target = matcher.group(1) == null ? ROOT : matcher.group(1);
                    if (!target.equals(name)) {
                        used.add(target);
                    }
                }
            }
        }
        return imports;
    }
}
