package io.sqlstreams.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * A PgBouncer in transaction mode in front of the test server ({@link TestPostgres}), started as a child process on
 * a free loopback port and stopped by {@link #close()}. The binary is {@link OptionalTool#PGBOUNCER}: a test class
 * that starts one carries {@code @RequiresTools(OptionalTool.PGBOUNCER)}.
 */
public final class PgBouncer implements AutoCloseable {
    /** The application name of every connection through a bouncer, so its server processes can be told apart. */
    public static final String APPLICATION_NAME = "sqlstreams-test-pgbouncer";
    private static final Pattern JDBC_URL = Pattern.compile("jdbc:postgresql://([^:/?]+)(?::(\\d+))?/([^?]+)(?:\\?(.*))?");
    private static final Duration STARTUP = Duration.ofSeconds(30);

    private final Process process;
    private final Path directory;
    private final int port;
    private final String database;
    private final String user;
    private final List<HikariDataSource> pools = new ArrayList<>();

    private PgBouncer(Process process, Path directory, int port, String database, String user) {
        this.process = process;
        this.directory = directory;
        this.port = port;
        this.database = database;
        this.user = user;
    }

    /** Starts one with {@code poolSize} server connections per database, in front of the test server. */
    public static PgBouncer start(int poolSize) throws IOException, InterruptedException {
        Path binary = OptionalTool.PGBOUNCER.path();
        Matcher server = JDBC_URL.matcher(TestPostgres.jdbcUrl());
        if (!server.matches()) {
            throw new IllegalStateException("cannot read host, port and database from " + TestPostgres.jdbcUrl());
        }
        String host = server.group(1).equals("localhost") ? "127.0.0.1" : server.group(1);
        String serverPort = server.group(2) == null ? "5432" : server.group(2);
        String user = parameter(server.group(4), "user").orElse("postgres");
        Path directory = Files.createTempDirectory("sqlstreams-pgbouncer",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        int port = freePort();
        Files.writeString(directory.resolve("userlist.txt"), "\"" + user + "\" \"\"\n");
        Files.writeString(directory.resolve("pgbouncer.ini"), String.join("\n",
                "[databases]",
                "* = host=" + host + " port=" + serverPort,
                "[pgbouncer]",
                "listen_addr = 127.0.0.1",
                "listen_port = " + port,
                "unix_socket_dir =",
                "auth_type = trust",
                "auth_file = " + directory.resolve("userlist.txt"),
                "pool_mode = transaction",
                "default_pool_size = " + poolSize,
                "max_client_conn = 200",
                "ignore_startup_parameters = extra_float_digits,options",
                ""));
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        if ("root".equals(System.getProperty("user.name"))) {
            command.addAll(List.of("-u", "postgres"));
        }
        command.add(directory.resolve("pgbouncer.ini").toString());
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(directory.resolve("pgbouncer.log").toFile()).start();
        PgBouncer bouncer = new PgBouncer(process, directory, port, server.group(3), user);
        bouncer.awaitListening();
        return bouncer;
    }

    /**
     * A pool of {@code size} connections through the bouncer, with server-side prepared statements off (pgjdbc's
     * {@code prepareThreshold=0}), as transaction pooling requires.
     */
    public DataSource dataSource(int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?user=" + user
                + "&prepareThreshold=0&ApplicationName=" + APPLICATION_NAME);
        config.setMaximumPoolSize(size);
        config.setPoolName("sqlstreams-test-pgbouncer");
        HikariDataSource pool = new HikariDataSource(config);
        pools.add(pool);
        return pool;
    }

    /** What the bouncer wrote, for failure messages. */
    public String log() {
        try {
            return Files.readString(directory.resolve("pgbouncer.log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        pools.forEach(HikariDataSource::close);
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
        try (var files = Files.walk(directory)) {
            files.sorted((a, b) -> b.compareTo(a)).map(Path::toFile).forEach(File::delete);
        }
    }

    private static Optional<String> parameter(String query, String name) {
        if (query == null) {
            return Optional.empty();
        }
        for (String pair : query.split("&")) {
            if (pair.startsWith(name + "=")) {
                return Optional.of(pair.substring(name.length() + 1));
            }
        }
        return Optional.empty();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private void awaitListening() throws InterruptedException {
        Instant deadline = Instant.now().plus(STARTUP);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("PgBouncer exited with " + process.exitValue() + ": " + log());
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return;
            } catch (IOException notYet) {
                process.waitFor(100, TimeUnit.MILLISECONDS);
            }
        }
        throw new UncheckedIOException(new IOException("PgBouncer did not listen on 127.0.0.1:" + port + " within "
                + STARTUP.toSeconds() + " s: " + log()));
    }
}
