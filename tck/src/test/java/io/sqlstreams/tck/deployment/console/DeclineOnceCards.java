package io.sqlstreams.tck.deployment.console;

import io.sqlstreams.ConsumerGroup;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.Outcome;
import io.sqlstreams.tck.deployment.Payment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A group whose observer declines ({@code Outcome.terminal}) the first delivery of every message and accepts any
 * later one: each message dead-letters once, and a redriven one succeeds. Payments for orders whose name starts
 * with {@value #ACCEPTED} are accepted at once.
 */
@ApplicationScoped
public class DeclineOnceCards {
    public static final String GROUP = "decline-once-cards";
    public static final String ACCEPTED = "accepted";

    private final Set<Long> declined = ConcurrentHashMap.newKeySet();

    void charge(@Observes @ConsumerGroup(stream = Payment.STREAM, group = GROUP) Payment payment, MessageMeta meta) {
        if (!payment.order().startsWith(ACCEPTED) && declined.add(meta.messageId())) {
            throw Outcome.terminal("card declined for " + payment.order());
        }
    }
}
