package io.sqlstreams.tck.payara;

import java.nio.file.Path;
import java.util.List;

/**
 * How the Payara Micro processes under test are started and where they log, from the system properties failsafe
 * sets.
 */
final class PayaraMicro {
    private static final String LOGS = "sqlstreams.tck.payara.logs";

    private PayaraMicro() {
    }

    /** The directory of every process's log. */
    static Path logs() {
        return Path.of(required(LOGS));
    }

    /** A system property failsafe sets in the tck module's payara profile. */
    static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("the system property " + property + " is not set (failsafe sets it in the"
                    + " tck module's payara profile)");
        }
        return value;
    }

    /** The words of a system property holding command-line options. */
    static List<String> words(String property) {
        return List.of(required(property).trim().split("\\s+"));
    }

    /** What {@code deployment}'s process is told to log to ({@code --logtofile}). */
    static Path logOption(String deployment) {
        return logs().resolve(deployment + ".log");
    }

    /**
     * The file {@code deployment}'s process logs to: Micro hands the option to a rotating JUL FileHandler, which
     * appends the generation, 0 being the current one.
     */
    static Path logOf(String deployment) {
        return logs().resolve(deployment + ".log.0");
    }
}
