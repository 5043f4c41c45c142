package io.sqlstreams.bench;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The restart of a server the harness was given: the caller's shell command ({@code --pg-restart-command}, run
 * with {@code sh -c}), which must stop the server and start it again and exit 0.
 *
 * @param command the shell command
 */
record CommandRestart(String command) implements BenchServer.Restart {
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    /** Output goes to a file, not a pipe: a server the command starts in the background may keep it open. */
    @Override
    public void run() throws IOException, InterruptedException {
        Path output = Files.createTempFile("bench-restart-", ".log");
        try {
            Process process = new ProcessBuilder("sh", "-c", command).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("the restart command ran longer than " + TIMEOUT + ": " + command);
            }
            if (process.exitValue() != 0) {
                throw new IOException("the restart command exited with " + process.exitValue() + ": " + command
                        + System.lineSeparator() + Files.readString(output, StandardCharsets.UTF_8).strip());
            }
        } finally {
            Files.deleteIfExists(output);
        }
    }

    @Override
    public String describe() {
        return "the command given by --pg-restart-command";
    }
}
