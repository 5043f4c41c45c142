package io.sqlstreams.jakarta;

import java.util.Set;

import jakarta.enterprise.inject.spi.CDI;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;

/**
 * In a web module, starts the sessions once the application is initialised and drains them on undeploy, from a
 * servlet context listener: there JNDI works on every server, unlike inside CDI lifecycle observers.
 */
public class SqlStreamsServletInitializer implements ServletContainerInitializer {

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        context.addListener(new Sessions());
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
