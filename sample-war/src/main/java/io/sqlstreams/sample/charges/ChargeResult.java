package io.sqlstreams.sample.charges;

/** Where a payment stands after {@link CardCharger#charge}. */
public enum ChargeResult {
    /** The order is charged: now, or by an earlier delivery. */
    CHARGED,
    /** The order's card was declined: now, or by an earlier delivery. */
    DECLINED,
    /** No order has the payment's order id. */
    NO_SUCH_ORDER,
    /** The gateway did not answer: nothing is decided, the payment is to be tried again. */
    GATEWAY_UNAVAILABLE
}
