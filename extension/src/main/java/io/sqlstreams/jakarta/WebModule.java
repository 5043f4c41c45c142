package io.sqlstreams.jakarta;

import java.net.URL;
import java.security.CodeSource;

/**
 * Whether a web module's servlet listener starts the sessions ({@link SqlStreamsServletInitializer}), so that the
 * application scope's initialisation must not.
 */
final class WebModule {
    private static final String SERVLET_CONTEXT = "jakarta.servlet.ServletContext";

    private WebModule() {
    }

    /**
     * True for a web module's application-scope payload (its ServletContext), and for any payload where this library
     * sits in a web module's {@code WEB-INF}: Payara initialises a WAR's application scope with Weld's payload for
     * non-web modules, during the deployment, before the module's {@code java:comp/env} is bound.
     */
    static boolean servletListenerStarts(Object payload) {
        return isServletContext(payload) || inWebInf(WebModule.class.getProtectionDomain().getCodeSource());
    }

    private static boolean isServletContext(Object payload) {
        try {
            return Class.forName(SERVLET_CONTEXT, false, payload.getClass().getClassLoader()).isInstance(payload);
        } catch (ClassNotFoundException | LinkageError noServletApi) {
            return false;
        }
    }

    private static boolean inWebInf(CodeSource source) {
        URL location = source == null ? null : source.getLocation();
        return location != null && location.toString().contains("/WEB-INF/");
    }
}
