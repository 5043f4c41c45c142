package io.sqlstreams.sample.orders;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.StreamName;
import io.sqlstreams.sample.PaymentRequestedV1;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

/** Takes orders: stores each one and asks for its payment in the same transaction. */
@ApplicationScoped
public class OrderDesk {

    @PersistenceContext(unitName = "payments")
    EntityManager entityManager;

    @Inject
    @StreamName(PaymentRequestedV1.STREAM)
    Producer<PaymentRequestedV1> payments;

    /**
     * Stores the order and produces its {@link PaymentRequestedV1}: both commit, or neither does.
     *
     * <p>The message key is the customer, the entity a charge is about: a group that must never charge one
     * customer's card twice at the same time can declare {@code concurrency-override=exclusive} without a change
     * here. The idempotency key is the order id, so one order never requests two payments; being a UUID, it is
     * stored as it is and finds the message from the order.
     */
    @Transactional
    public Order place(NewOrder request) {
        Order order = Order.place(request, OffsetDateTime.now(ZoneOffset.UTC));
        entityManager.persist(order);
        // Written now rather than at commit, so the message comes last: from its insert until the commit, an
        // open transaction that has produced holds back every group on the stream.
        entityManager.flush();
        ProduceResult requested = payments.produce(new PaymentRequestedV1(order.id(), order.customer(),
                order.amountCents(), order.currency()),
                ProduceOptions.builder().messageKey(order.customer()).idempotencyKey(order.id()).build());
        order.requestedPaymentAs(requested.id());
        return order;
    }
}
