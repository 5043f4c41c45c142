package io.sqlstreams.jakarta.config;

/**
 * Settings shared by every group of the application.
 *
 * @param dataSourceJndiName the server's PostgreSQL {@code DataSource}
 * @param schema             the schema that is one sqlstreams installation
 * @param managerEnabled     whether the application's consume sessions take part in the system manager
 */
public record GlobalSettings(String dataSourceJndiName, String schema, boolean managerEnabled) {

    public static final String DEFAULT_DATASOURCE_JNDI_NAME = "jdbc/sqlstreams";
}
