package io.sqlstreams.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A program that some tests need and that a machine with only a JDK and Maven lacks. Each is found at the path its
 * setting names (a system property or, failing that, an environment variable of that name) or at the path Debian's
 * package installs it to. Tests that need one carry {@link RequiresTools}: without the program they are skipped,
 * unless {@value #REQUIRED_VARIABLE} is {@code true} (as CI sets it), which makes a missing program a failure.
 */
public enum OptionalTool {
    PGBOUNCER("PgBouncer", "SQLSTREAMS_TEST_PGBOUNCER", "/usr/sbin/pgbouncer", "pgbouncer"),
    CHROMIUM("Chromium", "sqlstreams.tck.browser.chromium", "/usr/bin/chromium", "chromium"),
    CHROMEDRIVER("chromedriver", "sqlstreams.tck.browser.chromedriver", "/usr/bin/chromedriver", "chromium-driver");

    public static final String REQUIRED_VARIABLE = "SQLSTREAMS_TEST_TOOLS_REQUIRED";

    private final String displayName;
    private final String setting;
    private final String debianPath;
    private final String debianPackage;

    OptionalTool(String displayName, String setting, String debianPath, String debianPackage) {
        this.displayName = displayName;
        this.setting = setting;
        this.debianPath = debianPath;
        this.debianPackage = debianPackage;
    }

    /** The program's path, or an {@link IllegalStateException} saying where it was looked for and how to get it. */
    public Path path() {
        Path path = configuredPath();
        if (!Files.isExecutable(path)) {
            throw new IllegalStateException(absence());
        }
        return path;
    }

    boolean isInstalled() {
        return Files.isExecutable(configuredPath());
    }

    /** Why it is not there and how to get it: names the path tried, the setting and the Debian package. */
    String absence() {
        return "no " + displayName + " at " + configuredPath() + " (install Debian's " + debianPackage
                + ": apt-get install " + debianPackage + "; or name another path in " + setting + ")";
    }

    static boolean required() {
        return Boolean.parseBoolean(System.getenv(REQUIRED_VARIABLE));
    }

    private Path configuredPath() {
        String configured = System.getProperty(setting);
        if (configured == null || configured.isBlank()) {
            configured = System.getenv(setting);
        }
        return Path.of(configured == null || configured.isBlank() ? debianPath : configured);
    }
}
