package io.sqlstreams.tck;

import java.util.Map;

import org.jboss.shrinkwrap.api.spec.WebArchive;

import io.sqlstreams.tck.deployment.Payment;
import io.sqlstreams.tck.deployment.console.DeclineOnceCards;

/**
 * The application the console scenarios deploy, with the operator console enabled, and the users the server knows
 * for it: {@value #VIEWER} (role sqlstreams-viewer) and {@value #OPERATOR} (role sqlstreams-operator), each with the
 * password {@value #PASSWORD} (Liberty: src/test/liberty; Payara: src/test/payara).
 */
public final class ConsoleApplication {
    public static final String VIEWER = "viewer";
    public static final String OPERATOR = "operator";
    public static final String PASSWORD = "console-secret";
    /** The group's address under the console's {@code api/}. */
    public static final String GROUP_PATH = "groups/" + Payment.STREAM + "/" + DeclineOnceCards.GROUP;

    private static final String GROUP_KEY = "sqlstreams.groups.\"" + DeclineOnceCards.GROUP + "\".";

    private ConsoleApplication() {
    }

    /**
     * A WAR called {@code name} whose group works in {@code schema}; it claims every 100 ms and sees an operator's
     * pause or resume within 200 ms.
     */
    public static WebArchive archive(String name, String schema) {
        return ApplicationArchive.journalling(name, DeclineOnceCards.class.getPackage(), schema, Map.of(
                "sqlstreams.console.enabled", "true",
                GROUP_KEY + "claim-poll-rate", "100ms",
                GROUP_KEY + "config-refresh-interval", "200ms"));
    }
}
