package io.sqlstreams.tck.liberty;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Where the Liberty server under test keeps its files, from the system properties failsafe sets. */
final class LibertyServer {
    private LibertyServer() {
    }

    static Path messagesLog() {
        return logs().resolve("messages.log");
    }

    /** The FFDC incident reports the server wrote, one file each. */
    static List<Path> ffdcReports() throws IOException {
        Path ffdc = logs().resolve("ffdc");
        if (!Files.isDirectory(ffdc)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(ffdc)) {
            return files.filter(file -> file.getFileName().toString().startsWith("ffdc_")).toList();
        }
    }

    private static Path logs() {
        return Path.of(System.getProperty("sqlstreams.tck.liberty.user.dir"), "servers",
                System.getProperty("sqlstreams.tck.liberty.server"), "logs");
    }
}
