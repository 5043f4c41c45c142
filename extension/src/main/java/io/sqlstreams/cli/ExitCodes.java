package io.sqlstreams.cli;

/** What the tool's exit status means; documented in {@code docs/cli.md}. */
final class ExitCodes {
    /** The command did what it was asked; an empty list is a success. */
    static final int OK = 0;
    /**
     * The stream, consumer group, schedule, stream worker, installation or diagnostic code asked for is not there.
     */
    static final int ABSENT = 1;
    /** The operator did not confirm a destroy, a redrive or a discard at its prompt: nothing was changed. */
    static final int DECLINED = 1;
    /**
     * The command line is wrong: unknown flag, missing argument, invalid name or attribute, a limit below 1,
     * a malformed dead-letter filter (SQL0152), {@code --quiet} with JSON.
     */
    static final int USAGE = 2;
    /** PostgreSQL could not be reached (SQL0110). */
    static final int UNREACHABLE = 3;
    /**
     * PostgreSQL answered but the command failed (SQL0111, a schema version mismatch, a refused destroy, an
     * installation this build cannot use, …).
     */
    static final int FAILED = 4;

    private ExitCodes() {
    }
}
