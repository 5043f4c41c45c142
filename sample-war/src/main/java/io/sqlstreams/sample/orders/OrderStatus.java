package io.sqlstreams.sample.orders;

/** Where an order's payment stands. */
public enum OrderStatus {
    /** Stored, its payment requested and not yet decided. */
    PLACED,
    /** Its card was charged, once. */
    CHARGED,
    /** Its card was declined for good. */
    DECLINED
}
