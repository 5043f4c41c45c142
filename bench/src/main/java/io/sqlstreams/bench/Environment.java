package io.sqlstreams.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

/**
 * Where a run happened: the machine, the JVM, the PostgreSQL server and the settings that decide its figures,
 * and the code's commit.
 *
 * @param machine  processors, memory and operating system
 * @param java     the JVM's version and name
 * @param server   which server, as {@link BenchServer#description()} says
 * @param postgres the server's {@code version()}
 * @param settings the server settings that matter, by name
 * @param commit   {@code git rev-parse --short HEAD}, marked when the tree has uncommitted changes; "unknown"
 *                 outside a git work tree
 */
record Environment(String machine, String java, String server, String postgres, Map<String, String> settings,
                   String commit) {

    static final List<String> SETTINGS = List.of("fsync", "synchronous_commit", "shared_buffers", "wal_sync_method",
            "full_page_writes", "max_wal_size", "autovacuum");

    static Environment collect(BenchServer server) throws SQLException {
        DataSource dataSource = server.dataSource();
        Map<String, String> settings = new LinkedHashMap<>();
        for (String name : SETTINGS) {
            settings.put(name, query(dataSource, "SELECT current_setting(?)", name));
        }
        return new Environment(describeMachine(),
                System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")",
                server.description(), query(dataSource, "SELECT version()", null), settings, describeCommit());
    }

    /** Whether commits are durable: fsync and synchronous_commit both on, as every figure assumes. */
    boolean durable() {
        return "on".equals(settings.get("fsync")) && "on".equals(settings.get("synchronous_commit"));
    }

    private static String describeMachine() {
        String os = osRelease().map(release -> release + ", ").orElse("") + System.getProperty("os.name") + " "
                + System.getProperty("os.version") + " " + System.getProperty("os.arch");
        return Runtime.getRuntime().availableProcessors() + " processors (nproc), " + memory() + " memory, " + os;
    }

    private static String memory() {
        return lines(Path.of("/proc/meminfo")).stream().filter(line -> line.startsWith("MemTotal:")).findFirst()
                .map(line -> String.format(Locale.ROOT, "%.1f GiB",
                        Long.parseLong(line.replaceAll("\\D", "")) / (1024.0 * 1024.0)))
                .orElse("unknown");
    }

    private static Optional<String> osRelease() {
        return lines(Path.of("/etc/os-release")).stream().filter(line -> line.startsWith("PRETTY_NAME="))
                .findFirst().map(line -> line.substring("PRETTY_NAME=".length()).replace("\"", ""));
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            return List.of();
        }
    }

    private static String describeCommit() {
        return git("rev-parse", "--short", "HEAD")
                .map(hash -> git("status", "--porcelain").filter(status -> !status.isEmpty())
                        .map(status -> hash + " (with uncommitted changes)").orElse(hash))
                .orElse("unknown");
    }

    /** What {@code git args} prints, trimmed, when it succeeds. */
    private static Optional<String> git(String... args) {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            boolean ok = process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0;
            return ok ? Optional.of(output) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private static String query(DataSource dataSource, String sql, String parameter) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            if (parameter != null) {
                statement.setString(1, parameter);
            }
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return row.getString(1);
            }
        }
    }
}
