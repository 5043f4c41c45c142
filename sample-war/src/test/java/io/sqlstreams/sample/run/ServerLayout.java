package io.sqlstreams.sample.run;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * Where the sample's Liberty server and WAR are, as the build made them: {@code liberty:create} creates the server
 * in {@code package}, and Maven writes the paths into {@value #RESOURCE} on the test class path.
 *
 * @param libertyHome the {@code wlp} directory of the unpacked runtime
 * @param userDir     the server's {@code WLP_USER_DIR}
 * @param serverName  the server's name under {@code userDir/servers}
 * @param war         the sample application
 */
public record ServerLayout(Path libertyHome, Path userDir, String serverName, Path war) {
    static final String RESOURCE = "/sample-server.properties";

    public static ServerLayout load() {
        Properties paths = new Properties();
        try (InputStream in = ServerLayout.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the class path: run through Maven");
            }
            paths.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ServerLayout(Path.of(paths.getProperty("liberty.home")),
                Path.of(paths.getProperty("liberty.user.dir")), paths.getProperty("liberty.server"),
                Path.of(paths.getProperty("war")));
    }

    public Path serverDir() {
        return userDir.resolve("servers").resolve(serverName);
    }

    public Path serverScript() {
        return libertyHome.resolve("bin").resolve("server");
    }

    public Path messagesLog() {
        return serverDir().resolve("logs").resolve("messages.log");
    }

    /** The HTTP port the shared configuration's {@code bootstrap.properties} gives the server. */
    public int httpPort() {
        Properties bootstrap = new Properties();
        Path file = serverDir().resolve("bootstrap.properties");
        try (Reader reader = Files.newBufferedReader(file)) {
            bootstrap.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": was the server created (mvn package)?", e);
        }
        return Integer.parseInt(bootstrap.getProperty("http.port").trim());
    }
}
