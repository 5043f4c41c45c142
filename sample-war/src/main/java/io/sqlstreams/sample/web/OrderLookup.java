package io.sqlstreams.sample.web;

import java.util.Optional;

import io.sqlstreams.sample.charges.Charge;
import io.sqlstreams.sample.orders.Order;
import io.sqlstreams.sample.receipts.Receipt;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/** Finds an order with what each group has recorded for it. */
@ApplicationScoped
public class OrderLookup {

    @PersistenceContext(unitName = "payments")
    EntityManager entityManager;

    public Optional<OrderView> find(String orderId) {
        Order order = entityManager.find(Order.class, orderId);
        if (order == null) {
            return Optional.empty();
        }
        return Optional.of(OrderView.of(order, entityManager.find(Charge.class, orderId),
                entityManager.find(Receipt.class, orderId)));
    }
}
