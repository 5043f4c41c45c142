package io.sqlstreams.sample.run;

import java.nio.file.Path;

/**
 * Where Payara Micro and what it runs are, as the build's {@code payara} profile made them ({@link BuildProperties}).
 *
 * @param microJar  the Payara Micro jar
 * @param driver    the PostgreSQL driver jar Micro adds to its class path
 * @param configDir the shared Payara configuration: {@code bootstrap.properties}, {@code preboot.txt},
 *                  {@code postboot.txt}
 * @param workDir   where the launcher writes the sample's configuration and Micro its files and log
 * @param war       the sample application
 */
public record PayaraLayout(Path microJar, Path driver, Path configDir, Path workDir, Path war) {

    public static PayaraLayout load() {
        BuildProperties paths = BuildProperties.load();
        return new PayaraLayout(paths.path("payara.jar"), paths.path("payara.driver"), paths.path("payara.config"),
                paths.path("payara.work"), paths.path("war"));
    }
}
