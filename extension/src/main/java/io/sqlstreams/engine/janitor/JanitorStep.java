package io.sqlstreams.engine.janitor;

/** The steps of a janitor's pass, in the order it runs them. */
public enum JanitorStep {
    /** Create the partition that holds the next id and the one after it (counts partitions created). */
    CREATE_AHEAD("create_ahead"),
    /** Drop whole partitions below the active one holding nothing younger than retention, empty ones too (counts). */
    DROP_EXPIRED_PARTITIONS("drop_expired_partitions"),
    /** Delete expired messages from the front of every partition, in batches (counts messages). */
    SWEEP_EXPIRED_MESSAGES("sweep_expired_messages"),
    /** Delete idempotency claims older than the stream's IdempotencyKeyTTL (counts claims). */
    SWEEP_IDEMPOTENCY_KEYS("sweep_idempotency_keys"),
    /** Delete head-less compaction rows idle for longer than EmptyCompactionHeadTTL (counts rows). */
    SWEEP_EMPTY_COMPACTION_HEADS("sweep_empty_compaction_heads"),
    /** Delete message-key leases that have expired (counts leases). */
    SWEEP_EXPIRED_KEY_LEASES("sweep_expired_key_leases");

    private final String wireName;

    JanitorStep(String wireName) {
        this.wireName = wireName;
    }

    /** The step's name in log lines. */
    public String wireName() {
        return wireName;
    }
}
