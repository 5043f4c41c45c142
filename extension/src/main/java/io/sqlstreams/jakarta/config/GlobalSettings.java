package io.sqlstreams.jakarta.config;

/**
 * Settings shared by every group of the application.
 *
 * @param dataSourceJndiName the server's PostgreSQL {@code DataSource}
 * @param schema             the schema that is one sqlstreams installation
 * @param managerEnabled     whether the application's consume sessions take part in the system manager
 * @param wakeupEnabled      whether the application announces its commits and its idle sessions listen for them
 * @param consoleEnabled     whether the application serves the operator console
 * @param consolePath        where in the application the console is served
 * @param telemetryEnabled   whether produces and handler runs report to the server's OpenTelemetry, when it has one
 */
public record GlobalSettings(String dataSourceJndiName, String schema, boolean managerEnabled,
                             boolean wakeupEnabled, boolean consoleEnabled, String consolePath,
                             boolean telemetryEnabled) {

    public static final String DEFAULT_DATASOURCE_JNDI_NAME = "jdbc/sqlstreams";
    public static final String DEFAULT_CONSOLE_PATH = "/sqlstreams";
}
