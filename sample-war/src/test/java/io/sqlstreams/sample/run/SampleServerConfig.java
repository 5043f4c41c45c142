package io.sqlstreams.sample.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What the sample adds to the shared server configuration, written as a {@code configDropins/overrides} file
 * before each start: the WAR at the context root, the database as {@code pg.*} variables, which beat
 * {@code bootstrap.properties} (a {@code liberty.bootstrap.*} Maven property would replace that whole file), the
 * console's demo users ({@link ConsoleUsers}), and MicroProfile Config for the application, as its
 * {@code appProperties}.
 */
final class SampleServerConfig {
    static final String FILE = "sqlstreams-sample.xml";

    private SampleServerConfig() {
    }

    static void write(ServerLayout layout, DatabaseCoordinates database, Map<String, String> applicationConfig) {
        Map<String, String> variables = new LinkedHashMap<>();
        variables.put("pg.host", database.host());
        variables.put("pg.port", Integer.toString(database.port()));
        variables.put("pg.database", database.database());
        variables.put("pg.user", database.user());
        variables.put("pg.password", database.password());
        // what the URL leaves out keeps its value from bootstrap.properties
        variables.values().removeIf(Objects::isNull);
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
                .append("<!-- written by io.sqlstreams.sample.run.SampleServerConfig on every start -->\n<server>\n");
        variables.forEach((name, value) -> xml.append("  <variable name=\"").append(name).append("\" value=\"")
                .append(attribute(value)).append("\"/>\n"));
        webApplication(xml, layout, applicationConfig);
        xml.append(ConsoleUsers.registryXml()).append("</server>\n");
        Path overrides = layout.serverDir().resolve("configDropins").resolve("overrides");
        try {
            Files.createDirectories(overrides);
            Files.writeString(overrides.resolve(FILE), xml);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the sample's configuration into " + overrides, e);
        }
    }

    /** The WAR at the context root, with {@code applicationConfig} as its {@code appProperties}. */
    private static void webApplication(StringBuilder xml, ServerLayout layout, Map<String, String> applicationConfig) {
        xml.append("  <webApplication id=\"sqlstreams-sample\" name=\"sqlstreams-sample\" contextRoot=\"/\"")
                .append(" location=\"").append(attribute(layout.war().toAbsolutePath().toString()))
                .append("\">\n");
        if (!applicationConfig.isEmpty()) {
            xml.append("    <appProperties>\n");
            applicationConfig.forEach((name, value) -> xml.append("      <property name=\"").append(attribute(name))
                    .append("\" value=\"").append(attribute(value)).append("\"/>\n"));
            xml.append("    </appProperties>\n");
        }
        xml.append("  </webApplication>\n");
    }

    private static String attribute(String value) {
        return value.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
