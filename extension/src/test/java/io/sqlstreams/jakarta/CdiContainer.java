package io.sqlstreams.jakarta;

import java.lang.annotation.Annotation;
import java.util.HashMap;
import java.util.Map;

import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.sqlstreams.testing.TestDatabase;

/**
 * A Weld SE container standing in for the server: the given bean classes, the extension,
 * {@link TestResources} for JNDI, and a MicroProfile Config of the given properties (plus the test database's
 * schema) registered for the test's class loader while the container lives.
 */
final class CdiContainer implements AutoCloseable {
    private final WeldContainer weld;
    private final SmallRyeConfig config;

    private CdiContainer(WeldContainer weld, SmallRyeConfig config) {
        this.weld = weld;
        this.config = config;
    }

    static CdiContainer start(TestDatabase database, Map<String, String> properties, Class<?>... beans) {
        TestResources.dataSource = database.dataSource();
        Map<String, String> all = new HashMap<>(properties);
        all.putIfAbsent("sqlstreams.schema", database.schema());
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(all, "test", 100)).build();
        ConfigProviderResolver.instance().registerConfig(config, Thread.currentThread().getContextClassLoader());
        try {
            Weld weld = new Weld("sqlstreams-" + System.nanoTime()).disableDiscovery()
                    .addExtension(new SqlStreamsExtension()).addBeanClass(TestResources.class).addBeanClasses(beans);
            return new CdiContainer(weld.initialize(), config);
        } catch (RuntimeException failed) {
            ConfigProviderResolver.instance().releaseConfig(config);
            throw failed;
        }
    }

    <T> T select(Class<T> type, Annotation... qualifiers) {
        return weld.select(type, qualifiers).get();
    }

    @Override
    public void close() {
        try {
            weld.shutdown();
        } finally {
            ConfigProviderResolver.instance().releaseConfig(config);
        }
    }
}
