package io.sqlstreams.sample.run;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Properties;

/** The paths the build wrote into {@value #RESOURCE} on the test class path: the servers, their runtimes, the WAR. */
final class BuildProperties {
    static final String RESOURCE = "/sample-server.properties";

    private final Properties paths;

    private BuildProperties(Properties paths) {
        this.paths = paths;
    }

    static BuildProperties load() {
        Properties paths = new Properties();
        try (InputStream in = BuildProperties.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the class path: run through Maven");
            }
            paths.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new BuildProperties(paths);
    }

    Path path(String key) {
        return Path.of(text(key));
    }

    String text(String key) {
        String value = paths.getProperty(key);
        if (value == null) {
            throw new IllegalStateException(RESOURCE + " has no " + key);
        }
        return value;
    }
}
