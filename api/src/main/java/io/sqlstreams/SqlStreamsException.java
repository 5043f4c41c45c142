package io.sqlstreams;

import java.util.Objects;

/**
 * Every error the library raises. It carries its diagnostic {@link Code}: branch on {@link #code()},
 * never on the message text. {@link #isTransient()} tells whether an unchanged retry may succeed.
 */
public class SqlStreamsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Code code;

    public SqlStreamsException(Code code, String message) {
        this(code, message, null);
    }

    public SqlStreamsException(Code code, String message, Throwable cause) {
        super(code.id() + " " + Objects.requireNonNull(message, "message"), cause);
        this.code = code;
    }

    /** The diagnostic code, for example {@link Code#SQL0005} for an unknown stream. */
    public Code code() {
        return code;
    }

    /** True when the same call, unchanged, may succeed later (the code's recovery is transient). */
    public boolean isTransient() {
        return code.isTransient();
    }
}
