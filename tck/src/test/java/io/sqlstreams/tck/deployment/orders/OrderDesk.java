package io.sqlstreams.tck.deployment.orders;

import io.sqlstreams.Producer;
import io.sqlstreams.StreamName;
import io.sqlstreams.tck.deployment.Payment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

/** Stores an order with JPA and produces its payment in one JTA transaction. */
@ApplicationScoped
public class OrderDesk {
    @PersistenceContext(unitName = "orders")
    EntityManager orders;

    @Inject
    @StreamName(Payment.STREAM)
    Producer<Payment> payments;

    /** Stores and produces; {@code failAfterwards} throws once both are written, rolling both back. */
    @Transactional
    public void place(String name, boolean failAfterwards) {
        orders.persist(new Order(name));
        orders.flush();
        payments.produce(new Payment(name));
        if (failAfterwards) {
            throw new IllegalStateException("order " + name + " fails after it was stored and produced");
        }
    }
}
