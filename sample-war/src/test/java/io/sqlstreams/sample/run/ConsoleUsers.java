package io.sqlstreams.sample.run;

/**
 * The demo users of the sample's operator console, in Liberty's basic registry: one per console role. The sample
 * listens on 127.0.0.1 only; the passwords are printed and documented, so they protect nothing beyond this machine.
 */
final class ConsoleUsers {
    static final String PATH = "sqlstreams/";
    static final String VIEWER = "viewer";
    static final String OPERATOR = "operator";
    static final String PASSWORD = "sample-console";

    private ConsoleUsers() {
    }

    /** The registry and its groups; Liberty maps each console role to the group of the same name. */
    static String registryXml() {
        return """
                  <featureManager>
                    <feature>appSecurity-5.0</feature>
                  </featureManager>
                  <basicRegistry id="sample-console" realm="sqlstreams-sample">
                    <user name="%1$s" password="%3$s"/>
                    <user name="%2$s" password="%3$s"/>
                    <group name="sqlstreams-viewer"><member name="%1$s"/></group>
                    <group name="sqlstreams-operator"><member name="%2$s"/></group>
                  </basicRegistry>
                """.formatted(VIEWER, OPERATOR, PASSWORD);
    }
}
