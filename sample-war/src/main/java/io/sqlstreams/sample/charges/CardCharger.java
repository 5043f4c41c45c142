package io.sqlstreams.sample.charges;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import io.sqlstreams.MessageMeta;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.StreamName;
import io.sqlstreams.sample.PaymentChargedV1;
import io.sqlstreams.sample.PaymentRequestedV1;
import io.sqlstreams.sample.orders.Order;
import io.sqlstreams.sample.orders.OrderStatus;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

/**
 * Charges an order's card through the {@link CardGateway} and records the result with the order's new status,
 * in one transaction, which also produces the {@link PaymentChargedV1} of a charged order. Deliveries are at least once, so the same payment may arrive again after a crash or a
 * timeout: a decided order is never sent to the gateway a second time.
 */
@ApplicationScoped
public class CardCharger {

    @PersistenceContext(unitName = "payments")
    EntityManager entityManager;

    @Inject
    CardGateway gateway;

    @Inject
    @StreamName(PaymentChargedV1.STREAM)
    Producer<PaymentChargedV1> charged;

    /**
     * Answers {@link ChargeResult#GATEWAY_UNAVAILABLE} rather than throwing when the gateway did not answer: an
     * exception leaving a {@code @Transactional} method is an incident to the server (Open Liberty writes an FFDC
     * report with its stack trace), while this one is expected and retried.
     */
    @Transactional
    public ChargeResult charge(PaymentRequestedV1 payment, MessageMeta meta) {
        // The row lock makes a concurrent delivery of the same payment wait, then find the order decided.
        Order order = entityManager.find(Order.class, payment.orderId(), LockModeType.PESSIMISTIC_WRITE);
        if (order == null) {
            return ChargeResult.NO_SUCH_ORDER;
        }
        if (order.status() != OrderStatus.PLACED) {
            return order.status() == OrderStatus.CHARGED ? ChargeResult.CHARGED : ChargeResult.DECLINED;
        }
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        return switch (gateway.decide(payment.customer(), payment.amountCents(), meta.attempt())) {
            case APPROVED -> {
                entityManager.persist(new Charge(order.id(), now, meta.attempt(), meta.messageId()));
                order.markCharged(now);
                entityManager.flush();
                charged.produce(new PaymentChargedV1(order.id(), order.customer(), order.amountCents(),
                        order.currency(), now), ProduceOptions.builder().messageKey(order.customer())
                        .idempotencyKey(order.id()).build());
                yield ChargeResult.CHARGED;
            }
            case DECLINED -> {
                order.markDeclined(now);
                yield ChargeResult.DECLINED;
            }
            case UNAVAILABLE -> ChargeResult.GATEWAY_UNAVAILABLE;
        };
    }
}
