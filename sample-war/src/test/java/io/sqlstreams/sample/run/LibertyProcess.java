package io.sqlstreams.sample.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** The sample's Liberty server running in the foreground ({@code server run}) as a child process. */
final class LibertyProcess extends ChildProcessServer {
    static final String NAME = "Open Liberty";
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    private final ServerLayout layout;
    private final FileTime started;

    private LibertyProcess(ServerLayout layout, FileTime started, Process process) {
        super(process);
        this.layout = layout;
        this.started = started;
    }

    /**
     * Writes the sample's additions to the server's configuration, then starts it.
     *
     * @param applicationConfig MicroProfile Config for the sample, beside its own
     * @param output where the server's console output goes ({@code messages.log} has it too)
     */
    static LibertyProcess start(ServerLayout layout, DatabaseCoordinates database,
                                Map<String, String> applicationConfig, Redirect output) {
        SampleServerConfig.write(layout, database, applicationConfig);
        FileTime started = FileTime.from(Instant.now());
        // --clean drops the cached configuration of an earlier run
        return new LibertyProcess(layout, started, launch(layout, List.of("run", layout.serverName(), "--clean"),
                output));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + layout.httpPort() + "/");
    }

    @Override
    public Path log() {
        return layout.messagesLog();
    }

    /** {@code server stop}. */
    @Override
    void requestStop() throws InterruptedException {
        launch(layout, List.of("stop", layout.serverName()), Redirect.DISCARD).waitFor(STOP_TIMEOUT.toSeconds(),
                TimeUnit.SECONDS);
    }

    /** The FFDC reports Liberty wrote since this process started. */
    @Override
    public List<String> incidents() {
        Path ffdc = layout.serverDir().resolve("logs").resolve("ffdc");
        if (!Files.isDirectory(ffdc)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(ffdc)) {
            return files.filter(file -> file.getFileName().toString().startsWith("ffdc_"))
                    .filter(this::writtenSinceStart).map(Path::toString).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + ffdc, e);
        }
    }

    private boolean writtenSinceStart(Path file) {
        try {
            return Files.getLastModifiedTime(file).compareTo(started) >= 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Process launch(ServerLayout layout, List<String> arguments, Redirect output) {
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
