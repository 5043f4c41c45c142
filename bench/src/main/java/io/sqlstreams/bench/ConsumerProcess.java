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
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One child JVM (a {@link ChaosConsumerMain} unless told another main class): started with the harness's own class
 * path and the running JVM's {@code java}, its stderr kept in a file, its stdout lines read as they come, commands
 * written to its stdin ({@link HarnessLink} is the child's end).
 */
final class ConsumerProcess {
    /** Small and quick to start: several of these share two cores with PostgreSQL and the harness. */
    static final List<String> SMALL_JVM = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-Xshare:auto");

    private final String name;
    private final Process process;
    private final Path log;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    private ConsumerProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
        Thread reader = new Thread(this::read, "child-" + name + "-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code name} with {@code arguments} for {@link ChaosConsumerMain#main} in a {@link #SMALL_JVM}; its
     * stderr goes to {@code <logs>/<name>.log}.
     */
    static ConsumerProcess start(String name, List<String> arguments, Path logs) throws IOException {
        return start(name, ChaosConsumerMain.class, SMALL_JVM, arguments, logs);
    }

    /** Starts {@code name}: {@code main} with {@code arguments} in a JVM with {@code jvmOptions}. */
    static ConsumerProcess start(String name, Class<?> main, List<String> jvmOptions, List<String> arguments,
                                 Path logs) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classPath(), main.getName()));
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

    /** The newest line it reported that starts with {@code prefix} and a space. */
    Optional<String> lastLine(String prefix) {
        for (int k = lines.size() - 1; k >= 0; k--) {
            if (lines.get(k).startsWith(prefix + " ")) {
                return Optional.of(lines.get(k));
            }
        }
        return Optional.empty();
    }

    /**
     * Waits for a line that starts with {@code prefix} and a space; fails when the process exits first or
     * {@code timeout} passes.
     */
    String awaitLine(String prefix, Duration timeout) throws InterruptedException {
        return awaitLine(prefix, timeout, List.of());
    }

    /** As {@link #awaitLine(String, Duration)}, failing as well once it reports a line that starts with a failure. */
    String awaitLine(String prefix, Duration timeout, List<String> failures) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<String> line = lastLine(prefix);
            if (line.isPresent()) {
                return line.get();
            }
            for (String failure : failures) {
                Optional<String> failed = lastLine(failure);
                if (failed.isPresent()) {
                    throw new IllegalStateException(name + " reported " + failed.get() + "; see " + log);
                }
            }
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited before it reported \"" + prefix + "\"; see " + log);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " did not report \"" + prefix + "\" within " + timeout + "; see "
                        + log);
            }
            Thread.sleep(20);
        }
    }

    /** Writes {@code command} on its stdin; fails when the process is gone. */
    void command(String command) {
        if (!send(command)) {
            throw new IllegalStateException(name + " is gone; see " + log);
        }
    }

    /** Writes {@code command} on its stdin; false when it is gone. */
    boolean send(String command) {
        try {
            OutputStream in = process.getOutputStream();
            in.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
            return true;
        } catch (IOException gone) {
            return false;
        }
    }

    /** Whether one of its handlers has begun a run. */
    boolean busy() {
        return lines.contains(ChaosHandler.BUSY);
    }

    /** How many lines it reported that start with {@code prefix} and a space. */
    long reports(String prefix) {
        return lines.stream().filter(line -> line.startsWith(prefix + " ")).count();
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
        return lines.stream().filter(line -> line.startsWith(HarnessLink.SESSION_FAILED + " ")).toList();
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
            send(HarnessLink.STOP); // false: it exited meanwhile, and its exit status says how
        }
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            kill();
            return "did not stop within " + timeout + ": killed";
        }
        return lines.stream().filter(line -> line.startsWith(HarnessLink.STOPPED + " ")).findFirst()
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
