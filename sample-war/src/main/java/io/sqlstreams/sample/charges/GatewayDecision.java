package io.sqlstreams.sample.charges;

/** What the card gateway answers to one charge attempt. */
public enum GatewayDecision {
    /** The card was charged. */
    APPROVED,
    /** The card will never be charged for this amount: asking again changes nothing. */
    DECLINED,
    /** The gateway could not answer this time; the same request may succeed later. */
    UNAVAILABLE
}
