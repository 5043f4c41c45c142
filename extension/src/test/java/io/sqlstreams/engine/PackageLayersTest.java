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
 * The engine's sub-packages form layers: handles above, row access below. Read from the sources: an import of
 * another engine sub-package is an edge, and no chain of edges may lead back to where it started. The root package
 * holds what one client shares (its context and diagnostics) and the client itself, so it is left out.
 */
class PackageLayersTest {
    private static final Path SOURCES = Path.of("src/main/java/io/sqlstreams/engine");
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?io\\.sqlstreams\\.engine\\.([a-z]+)\\.",
            Pattern.MULTILINE);

    @Test
    void engineSubPackagesImportEachOtherWithoutACycle() throws IOException {
        Map<String, Set<String>> imports = imports();
        assertThat(imports).as("engine sub-packages found under " + SOURCES.toAbsolutePath())
                .containsKeys("consume", "query", "sql", "stream");
        List<String> cycles = new ArrayList<>();
        for (String start : imports.keySet()) {
            pathBack(start, start, imports, new ArrayList<>(List.of(start)), new HashSet<>(), cycles);
        }
        assertThat(cycles).as("import cycles between engine sub-packages").isEmpty();
    }

    @Test
    void theQueryLayerAndTheSqlPlumbingImportNoSubPackageAboveThem() throws IOException {
        Map<String, Set<String>> imports = imports();
        assertThat(imports.get("sql")).as("engine.sql imports").isEmpty();
        assertThat(imports.get("query")).as("engine.query imports").containsOnly("sql");
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
        try (Stream<Path> packages = Files.list(SOURCES)) {
            for (Path directory : packages.filter(Files::isDirectory).toList()) {
                String name = directory.getFileName().toString();
                Set<String> used = new TreeSet<>();
                try (Stream<Path> sources = Files.walk(directory)) {
                    for (Path source : sources.filter(path -> path.toString().endsWith(".java")).toList()) {
                        Matcher matcher = IMPORT.matcher(Files.readString(source));
                        while (matcher.find()) {
                            used.add(matcher.group(1));
                        }
                    }
                }
                used.remove(name);
                imports.put(name, used);
            }
        }
        return imports;
    }
}
