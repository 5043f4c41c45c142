package io.sqlstreams.sample.receipts;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import io.sqlstreams.MessageMeta;
import io.sqlstreams.sample.PaymentChargedV1;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

/** Keeps one receipt per order. */
@ApplicationScoped
public class ReceiptBook {

    @PersistenceContext(unitName = "payments")
    EntityManager entityManager;

    /**
     * Records the receipt of {@code payment} unless its order has one already. Two deliveries racing each other
     * both insert; the primary key fails the later one, whose retry then finds the receipt.
     */
    @Transactional
    public void issue(PaymentChargedV1 payment, MessageMeta meta) {
        if (entityManager.find(Receipt.class, payment.orderId()) == null) {
            entityManager.persist(new Receipt(payment.orderId(), OffsetDateTime.now(ZoneOffset.UTC),
                    meta.messageId()));
        }
    }
}
