package io.sqlstreams;

/** What a recorded alert says: its condition holds, or it held and no longer does. */
public enum AlertStatus {
    ACTIVE,
    RESOLVED
}
