package io.sqlstreams.jakarta.config;

import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.Map;
import org.eclipse.microprofile.config.Config;

/**
 * MicroProfile Config built in memory, with the ordinals a server gives its sources and SmallRye's default
 * interceptors (property expressions) as in Liberty, but without the JVM's own system properties and
 * environment.
 */
final class Configs {
    /** {@code META-INF/microprofile-config.properties}. */
    static final int APPLICATION_FILE = 100;
    /** Liberty's {@code server.xml} {@code <variable value="…"/>}. */
    static final int SERVER_XML = 500;

    private Configs() {
    }

    static Config application(Map<String, String> properties) {
        return new SmallRyeConfigBuilder()
                .addDefaultInterceptors()
                .withSources(new PropertiesConfigSource(properties, "application", APPLICATION_FILE))
                .build();
    }

    static Config applicationAndServer(Map<String, String> application, Map<String, String> server) {
        return new SmallRyeConfigBuilder()
                .addDefaultInterceptors()
                .withSources(new PropertiesConfigSource(application, "application", APPLICATION_FILE),
                        new PropertiesConfigSource(server, "server.xml", SERVER_XML))
                .build();
    }

    static Config applicationAndEnvironment(Map<String, String> application, Map<String, String> environment) {
        return new SmallRyeConfigBuilder()
                .addDefaultInterceptors()
                .withSources(new PropertiesConfigSource(application, "application", APPLICATION_FILE),
                        new EnvConfigSource(environment, 300))
                .build();
    }
}
