package io.sqlstreams.sample.charges;

/** The gateway did not answer; the delivery fails and is retried on the group's backoff. */
public class CardGatewayUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CardGatewayUnavailableException(String orderId, int attempt) {
        super("the card gateway is unavailable for order " + orderId + " (attempt " + attempt + ")");
    }
}
