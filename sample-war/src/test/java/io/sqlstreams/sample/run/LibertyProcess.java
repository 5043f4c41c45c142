package io.sqlstreams.sample.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The sample's Liberty server running in the foreground ({@code server run}) as a child process. */
final class LibertyProcess {
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final ServerLayout layout;
    private final Redirect output;
    private final Process process;

    private LibertyProcess(ServerLayout layout, Redirect output) {
        this.layout = layout;
        this.output = output;
        // --clean drops the cached configuration of an earlier run
        this.process = launch(List.of("run", layout.serverName(), "--clean"));
    }

    /** @param output where the server's console output goes ({@code messages.log} has it too) */
    static LibertyProcess start(ServerLayout layout, Redirect output) {
        return new LibertyProcess(layout, output);
    }

    /** Waits until {@code /health/ready} answers 200: the application is deployed and its groups consume. */
    void awaitReady(URI base, Duration timeout) throws InterruptedException {
        URI ready = base.resolve("/health/ready");
        Instant deadline = Instant.now().plus(timeout);
        String last = "no answer";
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Liberty exited (code " + process.exitValue()
                        + ") before the sample was ready; see " + layout.messagesLog());
            }
            try {
                HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(ready).timeout(POLL.multipliedBy(10))
                        .GET().build(), HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 200) {
                    return;
                }
                last = answer.statusCode() + " " + answer.body();
            } catch (IOException notListeningYet) {
                last = notListeningYet.toString();
            }
            Thread.sleep(POLL.toMillis());
        }
        throw new IllegalStateException("the sample was not ready within " + timeout.toSeconds() + " s (last answer "
                + "of " + ready + ": " + last + "); see " + layout.messagesLog());
    }

    /** Blocks until the server exits, by itself or through {@link #stop()}; its exit code. */
    int awaitExit() throws InterruptedException {
        return process.waitFor();
    }

    /** Stops the server gracefully ({@code server stop}), forcibly if it has not exited within a minute. */
    void stop() {
        try {
            if (process.isAlive()) {
                launch(List.of("stop", layout.serverName())).waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            }
            if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private Process launch(List<String> arguments) {
        ProcessBuilder builder = new ProcessBuilder(layout.serverScript().toString());
        builder.command().addAll(arguments);
        builder.environment().put("WLP_USER_DIR", layout.userDir().toString());
        // the JDK that runs Maven, whatever JAVA_HOME says
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        try {
            return builder.redirectOutput(output).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + layout.serverScript(), e);
        }
    }
}
