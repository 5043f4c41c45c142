package io.sqlstreams.bench;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One {@link ChaosConsumerMain} JVM: started with the harness's own class path and the running JVM's
 * {@code java}, its stderr kept in a file, its stdout lines read as they come.
 */
final class ConsumerProcess {
    /** Small and quick to start: several of these share two cores with PostgreSQL and the harness. */
    private static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-Xshare:auto");

    private final String name;
    private final Process process;
    private final Path log;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    private ConsumerProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
        Thread reader = new Thread(this::read, "chaos-" + name + "-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code name} with {@code arguments} for {@link ChaosConsumerMain#main}; its stderr goes to
     * {@code <logs>/<name>.log}.
     */
    static ConsumerProcess start(String name, List<String> arguments, Path logs) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        command.addAll(List.of("-cp", classPath(), ChaosConsumerMain.class.getName()));
        command.addAll(arguments);
        Path log = logs.resolve(name + ".log");
        Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        return new ConsumerProcess(name, process, log);
    }

    /**
     * The class path this harness runs with. Under {@code mvn exec:java} the project's classes come from a
     * class loader of the plugin's, not from {@code java.class.path}; a child needs that loader's entries.
     */
    static String classPath() {
        if (ConsumerProcess.class.getClassLoader() instanceof URLClassLoader loader && loader.getURLs().length > 0) {
            return Arrays.stream(loader.getURLs()).map(ConsumerProcess::path)
                    .collect(Collectors.joining(File.pathSeparator));
        }
        return System.getProperty("java.class.path");
    }

    private static String path(URL url) {
        try {
            return Path.of(url.toURI()).toString();
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new IllegalStateException("a class path entry that is not a file: " + url, e);
        }
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    Path log() {
        return log;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Whether it has reported a started session. */
    boolean ready() {
        return lines.stream().anyMatch(line -> line.startsWith(ChaosConsumerMain.READY + " "));
    }

    /** Whether one of its handlers has begun a run. */
    boolean busy() {
        return lines.contains(ChaosConsumerMain.BUSY);
    }

    /** Runs that failed because their start could not be written to the ledger. */
    long unrecordedRuns() {
        return lines.stream().filter(line -> line.startsWith(ChaosConsumerMain.UNRECORDED + " ")).count();
    }

    /** How it ended, for a process that exited on its own: its exit status and the last lines of its log. */
    String describeExit() {
        List<String> log;
        try {
            log = Files.readAllLines(this.log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            log = List.of("(log unreadable: " + e.getMessage() + ")");
        }
        return name + " (pid " + pid() + ") exited with " + process.exitValue() + "; its log " + this.log
                + " ends: " + String.join(" / ", log.subList(Math.max(0, log.size() - 3), log.size()));
    }

    /** The sessions that stopped on their own, as the process reported them. */
    List<String> sessionFailures() {
        return lines.stream().filter(line -> line.startsWith(ChaosConsumerMain.SESSION_FAILED + " ")).toList();
    }

    /** SIGKILL ({@link Process#destroyForcibly()} on Linux), then waits until the process is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException(name + " (pid " + pid() + ") survived SIGKILL");
        }
    }

    /**
     * Asks for a graceful stop and waits up to {@code timeout}; a process still running then is killed.
     *
     * @return the process's final report line ({@code stopped <counters>}), or why there is none
     */
    String stop(Duration timeout) throws InterruptedException {
        if (process.isAlive()) {
            try {
                OutputStream in = process.getOutputStream();
                in.write((ChaosConsumerMain.STOP + "\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
            } catch (IOException gone) {
                // it exited meanwhile; its exit status says how
            }
        }
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            kill();
            return "did not stop within " + timeout + ": killed";
        }
        return lines.stream().filter(line -> line.startsWith(ChaosConsumerMain.STOPPED + " ")).findFirst()
                .orElse("exited with " + process.exitValue() + " without a final report");
    }

    /** Kills it if it still runs (the harness is giving up). */
    void destroy() {
        process.destroyForcibly();
    }

    private void read() {
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lines.add(line);
            }
        } catch (IOException closed) {
            // the process is gone
        }
    }
}
