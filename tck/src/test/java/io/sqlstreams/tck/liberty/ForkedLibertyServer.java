package io.sqlstreams.tck.liberty;

import java.nio.file.Path;

import io.sqlstreams.tck.ForkedServer;

/**
 * The suite's Liberty server run by {@code bin/server run} (which becomes the server's JVM), with the application
 * in {@code dropins}. Only while Arquillian's instance of the same server is not running: the crash scenario has
 * a failsafe execution of its own, after the suite's.
 */
final class ForkedLibertyServer extends ForkedServer {
    private final Path home = Path.of(System.getProperty("sqlstreams.tck.liberty.home"));
    private final Path userDirectory = Path.of(System.getProperty("sqlstreams.tck.liberty.user.dir"));
    private final String name = System.getProperty("sqlstreams.tck.liberty.server");

    @Override
    protected Path applicationDirectory() {
        return serverDirectory().resolve("dropins");
    }

    @Override
    protected ProcessBuilder command(Path application) {
        ProcessBuilder command = new ProcessBuilder(home.resolve("bin").resolve("server").toString(), "run", name);
        command.environment().put("WLP_USER_DIR", userDirectory.toString());
        command.environment().put("JAVA_HOME", System.getProperty("java.home"));
        return command;
    }

    @Override
    protected Path consoleLog() {
        return serverDirectory().resolve("forked-console.log");
    }

    private Path serverDirectory() {
        return userDirectory.resolve("servers").resolve(name);
    }
}
