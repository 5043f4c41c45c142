package io.sqlstreams.engine.query;

/** The {@code status} of a binding-log row, spelled as the column stores it only here. */
public enum BindingStatus {
    /** The set became the group's effective binding. */
    INSTALLED("installed"),
    /** The set differed from the effective one while other instances were live, so it waits. */
    WAITING("waiting");

    private final String column;

    BindingStatus(String column) {
        this.column = column;
    }

    /** The value stored in the column. */
    public String column() {
        return column;
    }
}
