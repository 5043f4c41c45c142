package io.sqlstreams.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removal of a directory the harness made, with everything in it. */
final class DirectoryTree {

    private DirectoryTree() {
    }

    /** Deletes {@code directory} and its contents; nothing happens when it does not exist. */
    static void delete(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
