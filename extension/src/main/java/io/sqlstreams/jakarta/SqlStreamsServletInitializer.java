package io.sqlstreams.jakarta;

import java.util.Set;

import io.sqlstreams.jakarta.config.GlobalSettings;
import io.sqlstreams.jakarta.config.SettingsResolver;
import io.sqlstreams.jakarta.console.ConsoleRegistration;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * In a web module, starts the sessions once the application is initialised and drains them on undeploy, from a
 * servlet context listener: there JNDI works on every server, unlike inside CDI lifecycle observers. Adds the
 * operator console when {@code sqlstreams.console.enabled} is true; an invalid console setting fails the module.
 */
public class SqlStreamsServletInitializer implements ServletContainerInitializer {

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        context.addListener(new Sessions());
        GlobalSettings settings = SettingsResolver.global(ConfigProvider.getConfig());
        if (settings.consoleEnabled()) {
            ConsoleRegistration.register(context, settings.consolePath());
        }
    }

    /** Starts and stops the application's sessions with its servlet context. */
    static final class Sessions implements ServletContextListener {
        @Override
        public void contextInitialized(ServletContextEvent event) {
            CDI.current().select(SqlStreamsRuntime.class).get().start();
        }

        @Override
        public void contextDestroyed(ServletContextEvent event) {
            CDI.current().select(SqlStreamsRuntime.class).get().stop();
        }
    }
}
