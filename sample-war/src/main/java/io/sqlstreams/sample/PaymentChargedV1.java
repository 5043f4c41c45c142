package io.sqlstreams.sample;

import java.time.OffsetDateTime;

import io.sqlstreams.SchemaVersion;

/**
 * An order's card was charged. Produced by the {@code charge-cards} group in the transaction that records the
 * charge, on {@link #STREAM}: it exists exactly when the charge does.
 *
 * @param orderId     the order's id
 * @param customer    who paid
 * @param amountCents the amount charged, in the currency's smallest unit
 * @param currency    an ISO 4217 code such as {@code EUR}
 * @param chargedAt   when the gateway approved it
 */
@SchemaVersion(1)
public record PaymentChargedV1(String orderId, String customer, long amountCents, String currency,
                               OffsetDateTime chargedAt) {

    public static final String STREAM = "payments.charged";
}
