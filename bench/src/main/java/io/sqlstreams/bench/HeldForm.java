package io.sqlstreams.bench;

/**
 * How one held producer transaction of the chaos lab ({@link HeldProducers}) produces its message and ends after
 * its hold.
 */
enum HeldForm {
    COMMIT("committed", false, false, true),
    ROLLBACK("rolled back", false, false, false),
    SAVEPOINT_RELEASED("produced in a savepoint, released, committed", false, false, true),
    /** The message is rolled back with its savepoint; the transaction goes on holding its xid and commits. */
    SAVEPOINT_ROLLED_BACK("produced in a savepoint, rolled back to it, committed", false, true, true),
    PREPARED_COMMIT("prepared, then COMMIT PREPARED", true, false, true),
    PREPARED_ROLLBACK("prepared, then ROLLBACK PREPARED", true, false, false);

    private final String description;
    private final boolean prepared;
    private final boolean rolledBackToSavepoint;
    private final boolean commits;

    HeldForm(String description, boolean prepared, boolean rolledBackToSavepoint, boolean commits) {
        this.description = description;
        this.prepared = prepared;
        this.rolledBackToSavepoint = rolledBackToSavepoint;
        this.commits = commits;
    }

    String description() {
        return description;
    }

    /** Ends with PREPARE TRANSACTION, then COMMIT or ROLLBACK PREPARED from another connection. */
    boolean prepared() {
        return prepared;
    }

    /** Produces inside a savepoint. */
    boolean savepoint() {
        return this == SAVEPOINT_RELEASED || this == SAVEPOINT_ROLLED_BACK;
    }

    /** Whether the transaction is meant to commit. */
    boolean commits() {
        return commits;
    }

    /** Whether the message is in the log once the transaction committed. */
    boolean keepsMessage() {
        return commits && !rolledBackToSavepoint;
    }

    boolean rolledBackToSavepoint() {
        return rolledBackToSavepoint;
    }
}
