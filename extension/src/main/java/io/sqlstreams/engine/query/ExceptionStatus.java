package io.sqlstreams.engine.query;

import java.util.Arrays;

/** The {@code status} of an exception-queue row, spelled as the column stores it only here. */
public enum ExceptionStatus {
    READY("ready"),
    INFLIGHT("inflight"),
    DEFERRED("deferred"),
    DEAD("dead"),
    SUPERSEDED("superseded"),
    DISCARDED("discarded");

    private final String column;

    ExceptionStatus(String column) {
        this.column = column;
    }

    /** The value stored in the column. */
    public String column() {
        return column;
    }

    public static ExceptionStatus fromColumn(String value) {
        return Arrays.stream(values()).filter(status -> status.column.equals(value)).findFirst()
                .orElseThrow(() -> new IllegalStateException("unknown exception-queue status " + value));
    }
}
