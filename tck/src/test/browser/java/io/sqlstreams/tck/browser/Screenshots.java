package io.sqlstreams.tck.browser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The screenshots of one scenario run, numbered in the order they are taken: {@code <directory>/NN-name.png}, in the
 * directory the system property {@value #DIRECTORY} names (the browser profile: one per server under
 * {@code target/browser-screenshots}). A new run first removes the last run's.
 */
final class Screenshots {
    private static final String DIRECTORY = "sqlstreams.tck.browser.screenshots";

    private final Path directory;
    private int taken;

    private Screenshots(Path directory) {
        this.directory = directory;
    }

    static Screenshots fresh() {
        String name = System.getProperty(DIRECTORY);
        if (name == null || name.isBlank()) {
            throw new IllegalStateException("the system property " + DIRECTORY + " is not set (failsafe sets it in the"
                    + " tck module's browser profile)");
        }
        Path directory = Path.of(name);
        try {
            Files.createDirectories(directory);
            try (Stream<Path> old = Files.list(directory)) {
                for (Path png : old.filter(file -> file.toString().endsWith(".png")).toList()) {
                    Files.delete(png);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot empty the screenshot directory " + directory, e);
        }
        return new Screenshots(directory);
    }

    /** Where the next screenshot, called {@code name}, goes. */
    Path next(String name) {
        taken++;
        return directory.resolve("%02d-%s.png".formatted(taken, name));
    }
}
