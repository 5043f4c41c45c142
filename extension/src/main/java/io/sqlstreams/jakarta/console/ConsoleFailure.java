package io.sqlstreams.jakarta.console;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;

/**
 * An answer other than success: its HTTP status, its diagnostic code (the engine's refusal's, or SQL0164 for a
 * refusal of the console itself: an unknown path or message, a missing role or CSRF token, a wrong method), and a
 * message safe to show.
 */
final class ConsoleFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private static final String REFUSED = Code.SQL0164.id();

    private final int status;
    private final String code;

    ConsoleFailure(int status, String code, String message) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
    }

    static ConsoleFailure forbidden(String message) {
        return new ConsoleFailure(403, REFUSED, message);
    }

    static ConsoleFailure notFound(String message) {
        return new ConsoleFailure(404, REFUSED, message);
    }

    static ConsoleFailure methodNotAllowed(String method) {
        return new ConsoleFailure(405, REFUSED, method + " is not allowed here");
    }

    /** A refusal of the engine's as the client sees it: bad input is 400, something unknown 404, else 500. */
    static ConsoleFailure of(SqlStreamsException refused) {
        Code code = refused.code();
        String prefix = code.id() + " ";
        String message = refused.getMessage().startsWith(prefix)
                ? refused.getMessage().substring(prefix.length()) : refused.getMessage();
        return new ConsoleFailure(statusOf(code), code.id(), message);
    }

    private static int statusOf(Code code) {
        return switch (code) {
            case SQL0108, SQL0109, SQL0152 -> 400;
            case SQL0005, SQL0014 -> 404;
            default -> 500;
        };
    }

    int status() {
        return status;
    }

    String code() {
        return code;
    }
}
