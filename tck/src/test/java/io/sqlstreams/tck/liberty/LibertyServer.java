package io.sqlstreams.tck.liberty;

import java.nio.file.Path;

/** Where the Liberty server under test keeps its files, from the system properties failsafe sets. */
final class LibertyServer {
    private LibertyServer() {
    }

    static Path messagesLog() {
        return Path.of(System.getProperty("sqlstreams.tck.liberty.user.dir"), "servers",
                System.getProperty("sqlstreams.tck.liberty.server"), "logs", "messages.log");
    }
}
