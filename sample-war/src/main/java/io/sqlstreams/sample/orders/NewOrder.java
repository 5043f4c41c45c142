package io.sqlstreams.sample.orders;

/**
 * An order as a client asked for it, already checked by {@link OrderRequestReader}.
 *
 * @param customer    who pays, trimmed, never blank
 * @param amountCents at least one cent
 * @param currency    a known ISO 4217 code
 */
public record NewOrder(String customer, long amountCents, String currency) {
}
