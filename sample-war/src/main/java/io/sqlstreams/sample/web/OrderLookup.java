package io.sqlstreams.sample.web;

import java.util.Optional;

import io.sqlstreams.StreamHandle;
import io.sqlstreams.StreamName;
import io.sqlstreams.sample.PaymentRequestedV1;
import io.sqlstreams.sample.charges.Charge;
import io.sqlstreams.sample.charges.ChargeCards;
import io.sqlstreams.sample.orders.Order;
import io.sqlstreams.sample.receipts.Receipt;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/** Finds an order with what each group has recorded for it, and where its payment request stands. */
@ApplicationScoped
public class OrderLookup {

    @PersistenceContext(unitName = "payments")
    EntityManager entityManager;

    @Inject
    @StreamName(PaymentRequestedV1.STREAM)
    StreamHandle<PaymentRequestedV1> payments;

    public Optional<OrderView> find(String orderId) {
        Order order = entityManager.find(Order.class, orderId);
        if (order == null) {
            return Optional.empty();
        }
        Charge charge = entityManager.find(Charge.class, orderId);
        return Optional.of(OrderView.of(order, payment(order, charge), charge,
                entityManager.find(Receipt.class, orderId)));
    }

    private PaymentView payment(Order order, Charge charge) {
        if (charge != null) {
            return PaymentView.charged(charge);
        }
        if (order.paymentMessageId() == null) {
            return null;
        }
        return payments.locate(order.paymentMessageId())
                .map(whereabouts -> whereabouts.groups().get(ChargeCards.GROUP))
                .map(placement -> PaymentView.of(order.status(), placement))
                .orElse(null);
    }
}
