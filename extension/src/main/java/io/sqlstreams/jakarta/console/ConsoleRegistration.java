package io.sqlstreams.jakarta.console;

import jakarta.servlet.HttpConstraintElement;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.ServletSecurityElement;
import jakarta.servlet.annotation.ServletSecurity.TransportGuarantee;

/** Adds the operator console to a web module, reachable only by users in one of its two roles. */
public final class ConsoleRegistration {
    /** May read everything the console shows. */
    public static final String VIEWER = "sqlstreams-viewer";
    /** May also redrive, discard, pause and resume. */
    public static final String OPERATOR = "sqlstreams-operator";

    private ConsoleRegistration() {
    }

    /** Serves the console under {@code path}, a validated {@code sqlstreams.console.path}. */
    public static void register(ServletContext context, String path) {
        ServletRegistration.Dynamic registration = context.addServlet("sqlstreams-console", new ConsoleServlet());
        String base = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        registration.addMapping(base + "/*");
        registration.setServletSecurity(new ServletSecurityElement(
                new HttpConstraintElement(TransportGuarantee.NONE, VIEWER, OPERATOR)));
        context.declareRoles(VIEWER, OPERATOR);
    }
}
