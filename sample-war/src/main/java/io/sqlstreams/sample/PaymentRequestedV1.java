package io.sqlstreams.sample;

import io.sqlstreams.SchemaVersion;

/**
 * Asks for an order to be paid. Produced with the order, in the same transaction, on {@link #STREAM}.
 *
 * @param orderId     the order's id
 * @param customer    who pays
 * @param amountCents the amount in the currency's smallest unit
 * @param currency    an ISO 4217 code such as {@code EUR}
 */
@SchemaVersion(1)
public record PaymentRequestedV1(String orderId, String customer, long amountCents, String currency) {

    public static final String STREAM = "payments.requested";
}
