package io.sqlstreams.tck.payara;

import java.nio.file.Path;

/** Where the Payara Micro processes under test write their logs, from the system property failsafe sets. */
final class PayaraMicro {
    private static final String LOGS = "sqlstreams.tck.payara.logs";

    private PayaraMicro() {
    }

    /** The directory of every process's log. */
    static Path logs() {
        String directory = System.getProperty(LOGS);
        if (directory == null) {
            throw new IllegalStateException("the system property " + LOGS + " names the directory of the Payara Micro"
                    + " logs (set by failsafe in the tck module's payara profile)");
        }
        return Path.of(directory);
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
