package io.sqlstreams.jakarta.config;

import io.sqlstreams.ClientConfig;

/** The application-wide settings while their properties are bound. */
final class GlobalDraft {
    private String dataSourceJndiName = GlobalSettings.DEFAULT_DATASOURCE_JNDI_NAME;
    private String schema = ClientConfig.DEFAULT_SCHEMA;
    private boolean managerEnabled = true;
    private boolean wakeupEnabled = true;
    private boolean consoleEnabled;
    private String consolePath = GlobalSettings.DEFAULT_CONSOLE_PATH;
    private boolean telemetryEnabled = true;

    void dataSourceJndiName(String dataSourceJndiName) {
        this.dataSourceJndiName = dataSourceJndiName;
    }

    void schema(String schema) {
        this.schema = schema;
    }

    void managerEnabled(boolean managerEnabled) {
        this.managerEnabled = managerEnabled;
    }

    void wakeupEnabled(boolean wakeupEnabled) {
        this.wakeupEnabled = wakeupEnabled;
    }

    void consoleEnabled(boolean consoleEnabled) {
        this.consoleEnabled = consoleEnabled;
    }

    void consolePath(String consolePath) {
        this.consolePath = consolePath;
    }

    void telemetryEnabled(boolean telemetryEnabled) {
        this.telemetryEnabled = telemetryEnabled;
    }

    GlobalSettings build() {
        return new GlobalSettings(dataSourceJndiName, schema, managerEnabled, wakeupEnabled, consoleEnabled,
                consolePath, telemetryEnabled);
    }
}
