package io.sqlstreams.sample.charges;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * A stand-in for a card processor, predictable enough to show each outcome of a delivery: amounts above
 * {@link #LIMIT_CENTS} are declined, a customer whose name starts with {@link #FLAKY_PREFIX} finds the gateway
 * unavailable on the first attempt, and everything else is approved.
 */
@ApplicationScoped
public class CardGateway {
    /** 1,000.00 in any currency. */
    public static final long LIMIT_CENTS = 100_000;
    public static final String FLAKY_PREFIX = "flaky-";

    /**
     * @param attempt which delivery of the payment this is, starting at 1
     */
    public GatewayDecision decide(String customer, long amountCents, int attempt) {
        if (amountCents > LIMIT_CENTS) {
            return GatewayDecision.DECLINED;
        }
        if (customer.startsWith(FLAKY_PREFIX) && attempt == 1) {
            return GatewayDecision.UNAVAILABLE;
        }
        return GatewayDecision.APPROVED;
    }
}
