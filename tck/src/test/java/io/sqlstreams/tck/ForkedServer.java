package io.sqlstreams.tck;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * A server the scenario starts, kills and restarts itself, as an operating system process: what a crash needs,
 * since Arquillian cannot survive the server it started being killed. One application at a time; its output goes
 * to a log file for when something fails.
 */
public abstract class ForkedServer implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    private Process process;
    private Path application;

    /** Where the application's archive goes before the server starts, so that the server deploys it. */
    protected abstract Path applicationDirectory();

    /** The command that runs the server in the foreground with {@code application} deployed. */
    protected abstract ProcessBuilder command(Path application);

    /** Where the server's console output goes. */
    protected abstract Path consoleLog();

    /** Starts the server with {@code archive} deployed and returns once its readiness check answers UP. */
    public void start(WebArchive archive) throws IOException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("the server is already running (pid " + process.pid() + ")");
        }
        Files.createDirectories(applicationDirectory());
        Files.createDirectories(consoleLog().getParent());
        application = applicationDirectory().resolve(archive.getName());
        archive.as(ZipExporter.class).exportTo(application.toFile(), true);
        process = command(application).redirectErrorStream(true)
                .redirectOutput(Redirect.appendTo(consoleLog().toFile())).start();
        ThreadDumps.register(getClass().getSimpleName() + " running " + archive.getName(), process.toHandle());
        await().atMost(START_TIMEOUT).until(() -> !process.isAlive() || ready());
        if (!process.isAlive()) {
            throw new IllegalStateException("the server exited with " + process.exitValue() + " while starting; see "
                    + consoleLog());
        }
    }

    /** Kills the server as a crash does (SIGKILL): no shutdown hook, no drain, no lease given back. */
    public void kill() {
        List<ProcessHandle> tree = processTree();
        tree.forEach(ProcessHandle::destroyForcibly);
        tree.forEach(member -> member.onExit().join());
        ThreadDumps.forget(process.toHandle());
    }

    /** Stops the server as an operator does (SIGTERM, so it drains), and takes the application away. */
    @Override
    public void close() throws IOException {
        if (process != null && process.isAlive()) {
            List<ProcessHandle> tree = processTree();
            tree.forEach(ProcessHandle::destroy);
            try {
                if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                    ThreadDumps.print("the server did not exit within " + STOP_TIMEOUT + " of SIGTERM; killing it",
                            process.pid(), getClass().getSimpleName());
                    kill();
                }
            } catch (InterruptedException e) {
                kill();
                Thread.currentThread().interrupt();
            }
        }
        if (process != null) {
            ThreadDumps.forget(process.toHandle());
        }
        if (application != null) {
            Files.deleteIfExists(application);
        }
    }

    private List<ProcessHandle> processTree() {
        return Stream.concat(process.descendants(), Stream.of(process.toHandle())).toList();
    }

    private static boolean ready() {
        try {
            return HealthEndpoint.get(ServerCoordinates.current(), "ready").status() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
