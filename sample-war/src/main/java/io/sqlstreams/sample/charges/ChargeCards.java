package io.sqlstreams.sample.charges;

import io.sqlstreams.ConsumerGroup;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.Outcome;
import io.sqlstreams.sample.PaymentRequestedV1;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * The {@code charge-cards} group: charges the card of every requested payment. A declined card or an unknown
 * order dead-letters the delivery at once; a gateway that did not answer fails it, so it is retried on the
 * group's backoff (declared in {@code microprofile-config.properties}). The failure is thrown here, after the
 * charger's transaction has ended, not from inside it.
 */
@ApplicationScoped
public class ChargeCards {
    public static final String GROUP = "charge-cards";

    @Inject
    CardCharger charger;

    void charge(@Observes @ConsumerGroup(stream = PaymentRequestedV1.STREAM, group = GROUP)
                PaymentRequestedV1 payment, MessageMeta meta) {
        switch (charger.charge(payment, meta)) {
            case CHARGED -> {
            }
            case DECLINED -> throw Outcome.terminal("the card for order " + payment.orderId() + " was declined");
            case NO_SUCH_ORDER -> throw Outcome.terminal("no order " + payment.orderId() + " was placed");
            case GATEWAY_UNAVAILABLE -> throw new CardGatewayUnavailableException(payment.orderId(), meta.attempt());
        }
    }
}
