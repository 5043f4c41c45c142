package io.sqlstreams.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * A program that some tests need and that a machine with only a JDK and Maven lacks. Each is found at the path its
 * setting names (a system property or, failing that, an environment variable of that name) or at the path Debian's
 * package installs it to or, when it is not there, under the same file name in a directory of {@code PATH}. Tests
 * that need one carry {@link RequiresTools}: without the program they are skipped,
 * unless {@value #REQUIRED_VARIABLE} is {@code true} (as CI sets it), which makes a missing program a failure.
 */
public enum OptionalTool {
    PGBOUNCER("PgBouncer", "SQLSTREAMS_TEST_PGBOUNCER", "/usr/sbin/pgbouncer", "pgbouncer"),
    CHROMIUM("Chromium", "sqlstreams.tck.browser.chromium", "/usr/bin/chromium", "chromium"),
    CHROMEDRIVER("chromedriver", "sqlstreams.tck.browser.chromedriver", "/usr/bin/chromedriver", "chromium-driver"),
    PROMTOOL("promtool", "SQLSTREAMS_TEST_PROMTOOL", "/usr/bin/promtool", "prometheus");

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
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        Path debian = Path.of(debianPath);
        return Files.isExecutable(debian) ? debian : onSearchPath().orElse(debian);
    }

    /** The program under its Debian file name in a directory of {@code PATH}, when it is installed elsewhere. */
    private Optional<Path> onSearchPath() {
        String fileName = Path.of(debianPath).getFileName().toString();
        String searchPath = System.getenv("PATH");
        return searchPath == null ? Optional.empty() : Arrays.stream(searchPath.split(File.pathSeparator))
                .filter(directory -> !directory.isBlank()).map(directory -> Path.of(directory, fileName))
                .filter(Files::isExecutable).findFirst();
    }
}
