package io.sqlstreams.jakarta;

/** Tells a web module's application-scope payload (its ServletContext) from any other. */
final class WebModule {
    private static final String SERVLET_CONTEXT = "jakarta.servlet.ServletContext";

    private WebModule() {
    }

    static boolean isServletContext(Object payload) {
        try {
            return Class.forName(SERVLET_CONTEXT, false, payload.getClass().getClassLoader()).isInstance(payload);
        } catch (ClassNotFoundException | LinkageError noServletApi) {
            return false;
        }
    }
}
