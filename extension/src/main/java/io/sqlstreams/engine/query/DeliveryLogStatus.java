package io.sqlstreams.engine.query;

import java.util.Arrays;

import io.sqlstreams.DeliveryLogMode;

/** The {@code status} of a delivery-log row, spelled as the column stores it only here. */
public enum DeliveryLogStatus {
    SUCCESS("success"),
    FAILURE("failure"),
    DELAYED("delayed"),
    DEFERRED("deferred"),
    SUPERSEDED("superseded"),
    REDRIVEN("redriven"),
    DISCARDED("discarded");

    private final String column;

    DeliveryLogStatus(String column) {
        this.column = column;
    }

    /** The value stored in the column. */
    public String column() {
        return column;
    }

    /** Whether a stream logging deliveries in {@code mode} writes a row of this status. */
    public boolean loggedUnder(DeliveryLogMode mode) {
        return mode == DeliveryLogMode.ALL || mode == DeliveryLogMode.FAILURES && this != SUCCESS;
    }

    public static DeliveryLogStatus fromColumn(String value) {
        return Arrays.stream(values()).filter(status -> status.column.equals(value)).findFirst()
                .orElseThrow(() -> new IllegalStateException("unknown delivery-log status " + value));
    }
}
