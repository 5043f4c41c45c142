package io.sqlstreams.sample.run;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.ProcessBuilder.Redirect;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The sample on Payara Micro as a child process: the shared Payara configuration with the sample's database and
 * the console's demo users, the WAR at the context root. Micro's Hazelcast listens on every interface even with {@code --nocluster}.
 */
final class PayaraMicroProcess extends ChildProcessServer {
    static final String NAME = "Payara Micro";
    private static final String LOG = "payara.log";

    private final PayaraLayout layout;
    private final int httpPort;

    private PayaraMicroProcess(PayaraLayout layout, int httpPort, Process process) {
        super(process);
        this.layout = layout;
        this.httpPort = httpPort;
    }

    /**
     * @param applicationConfig MicroProfile Config for the sample, beside its own: system properties to Micro
     * @param output            where Micro's console output goes (its log has it too)
     */
    static PayaraMicroProcess start(PayaraLayout layout, DatabaseCoordinates database,
                                    Map<String, String> applicationConfig, Redirect output) {
        try {
            // a fresh start: Micro's root directory keeps the configuration of the last run, database port included
            deleteTree(layout.workDir());
            Files.createDirectories(layout.workDir());
            Properties system = systemProperties(layout, database);
            system.putAll(applicationConfig);
            Path systemFile = layout.workDir().resolve("bootstrap.properties");
            try (Writer writer = Files.newBufferedWriter(systemFile)) {
                system.store(writer, "written by io.sqlstreams.sample.run.PayaraMicroProcess on every start");
            }
            Path keyfile = layout.workDir().resolve("console-keyfile");
            Files.writeString(keyfile, ConsoleUsers.payaraKeyfile());
            Path preboot = layout.workDir().resolve("preboot.txt");
            Files.writeString(preboot, Files.readString(layout.configDir().resolve("preboot.txt")) + "\n"
                    + ConsoleUsers.payaraCommands(keyfile.toAbsolutePath()));
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-Xmx768m", "-jar", layout.microJar().toString(), "--nocluster",
                    "--systemproperties", systemFile.toString(),
                    "--prebootcommandfile", preboot.toString(),
                    "--postbootcommandfile", layout.configDir().resolve("postboot.txt").toString(),
                    "--addlibs", layout.driver().toString(),
                    "--rootdir", layout.workDir().resolve("root").toString(),
                    "--logtofile", layout.workDir().resolve(LOG).toString(),
                    "--deploy", layout.war().toString(), "--contextroot", "/"));
            Process process = new ProcessBuilder(command).redirectOutput(output).redirectErrorStream(true).start();
            return new PayaraMicroProcess(layout, Integer.parseInt(system.getProperty("http.port").trim()), process);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Payara Micro from " + layout.microJar(), e);
        }
    }

    private static void deleteTree(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }

    /** The shared {@code bootstrap.properties} with the sample's database in its {@code pg.*} keys. */
    private static Properties systemProperties(PayaraLayout layout, DatabaseCoordinates database) throws IOException {
        Properties system = new Properties();
        try (Reader reader = Files.newBufferedReader(layout.configDir().resolve("bootstrap.properties"))) {
            system.load(reader);
        }
        system.setProperty("pg.host", database.host());
        system.setProperty("pg.port", Integer.toString(database.port()));
        // what the URL leaves out keeps its value from the shared file
        if (database.database() != null) {
            system.setProperty("pg.database", database.database());
        }
        if (database.user() != null) {
            system.setProperty("pg.user", database.user());
        }
        if (database.password() != null) {
            system.setProperty("pg.password", database.password());
        }
        return system;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + httpPort + "/");
    }

    @Override
    public Path log() {
        return logOf(layout);
    }

    /** Micro hands {@code --logtofile} to a rotating file handler, which appends the generation, 0 the current. */
    static Path logOf(PayaraLayout layout) {
        return layout.workDir().resolve(LOG + ".0");
    }

    /** SIGTERM: Micro stops as its JVM shuts down, undeploying the application, whose sessions drain. */
    @Override
    void requestStop() {
        process().destroy();
    }

    /** The exceptions whose stack traces in Micro's log pass through the sample's code. */
    @Override
    public List<String> incidents() {
        Path log = log();
        if (!Files.exists(log)) {
            return List.of();
        }
        Set<String> incidents = new LinkedHashSet<>();
        String header = "";
        try {
            for (String line : Files.readAllLines(log)) {
                String trimmed = line.strip();
                if (!trimmed.startsWith("at ")) {
                    header = trimmed;
                } else if (trimmed.startsWith("at io.sqlstreams.sample.")) {
                    incidents.add(header);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + log, e);
        }
        return List.copyOf(incidents);
    }
}
