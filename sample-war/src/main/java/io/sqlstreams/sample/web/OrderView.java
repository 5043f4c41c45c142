package io.sqlstreams.sample.web;

import java.time.OffsetDateTime;

import io.sqlstreams.sample.charges.Charge;
import io.sqlstreams.sample.orders.Order;
import io.sqlstreams.sample.orders.OrderStatus;
import io.sqlstreams.sample.receipts.Receipt;

/**
 * An order as the API shows it: where its payment stands (absent when the order is not followed), and its charge
 * and receipt once the groups have made them (absent until then).
 */
public record OrderView(String id, String customer, long amountCents, String currency, OrderStatus status,
                        OffsetDateTime placedAt, OffsetDateTime updatedAt, PaymentView payment, ChargeView charge,
                        ReceiptView receipt) {

    /**
     * @param payment null when the order's payment request is not followed (placed by an older sample, or no
     *                longer retained)
     * @param charge  null until the card is charged
     * @param receipt null until the receipt is issued
     */
    static OrderView of(Order order, PaymentView payment, Charge charge, Receipt receipt) {
        return new OrderView(order.id(), order.customer(), order.amountCents(), order.currency(), order.status(),
                order.placedAt(), order.updatedAt(), payment,
                charge == null ? null : new ChargeView(charge.chargedAt(), charge.attempt(), charge.messageId()),
                receipt == null ? null : new ReceiptView(receipt.issuedAt(), receipt.messageId()));
    }

    /** @param attempt the delivery attempt that charged the card, starting at 1 */
    public record ChargeView(OffsetDateTime chargedAt, int attempt, long messageId) {
    }

    public record ReceiptView(OffsetDateTime issuedAt, long messageId) {
    }
}
