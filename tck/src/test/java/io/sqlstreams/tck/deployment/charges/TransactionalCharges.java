package io.sqlstreams.tck.deployment.charges;

import io.sqlstreams.ConsumerGroup;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.tck.deployment.Payment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

/**
 * The transactional charge-cards group: stores a {@link Charge} per payment with JPA inside the message's JTA
 * transaction. A payment whose order starts with {@code fail-once} throws on its first attempt after its charge was
 * written and flushed, so that write must roll back with the attempt.
 */
@ApplicationScoped
public class TransactionalCharges {
    public static final String GROUP = "charge-cards";
    public static final String FAIL_ONCE = "fail-once";

    @PersistenceContext(unitName = "charges")
    EntityManager charges;

    // the library rolls the message's transaction back on any exception itself; without dontRollbackOn, Open Liberty
    // also writes an FFDC incident for every exception that leaves the joined method
    @Transactional(dontRollbackOn = Exception.class)
    void charge(@Observes @ConsumerGroup(stream = Payment.STREAM, group = GROUP) Payment payment, MessageMeta meta) {
        charges.persist(new Charge(meta.messageId(), payment.order(), meta.attempt()));
        charges.flush();
        if (payment.order().startsWith(FAIL_ONCE) && meta.attempt() == 1) {
            throw new IllegalStateException("declined after its charge was written: " + payment.order());
        }
    }
}
