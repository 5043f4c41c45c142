package io.sqlstreams.cli;

/** The {@code sqlstreams} command: {@code java -jar sqlstreams-extension-<version>-cli.jar <command> …}. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.exit(SqlStreamsCli.commandLine(System.getenv(), Prompt.of(System.console())).execute(args));
    }
}
