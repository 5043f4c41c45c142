package io.sqlstreams.sample.run;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * Where the sample's Liberty server and WAR are, as the build made them: {@code liberty:create} creates the server
 * in {@code package}, and Maven writes the paths ({@link BuildProperties}).
 *
 * @param libertyHome the {@code wlp} directory of the unpacked runtime
 * @param userDir     the server's {@code WLP_USER_DIR}
 * @param serverName  the server's name under {@code userDir/servers}
 * @param war         the sample application
 */
public record ServerLayout(Path libertyHome, Path userDir, String serverName, Path war) {
    public static ServerLayout load() {
        BuildProperties paths = BuildProperties.load();
        return new ServerLayout(paths.path("liberty.home"), paths.path("liberty.user.dir"),
                paths.text("liberty.server"), paths.path("war"));
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
