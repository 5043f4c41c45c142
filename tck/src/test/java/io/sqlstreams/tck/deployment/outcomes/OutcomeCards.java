package io.sqlstreams.tck.deployment.outcomes;

import java.sql.SQLException;
import java.time.Duration;

import io.sqlstreams.ConsumerGroup;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.Outcome;
import io.sqlstreams.tck.deployment.Journal;
import io.sqlstreams.tck.deployment.Payment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * A group whose observer ends each delivery as the payment's order says: {@code fail-once-…} throws on its first
 * run, {@code terminal-…} is declined for good, {@code delay-…} asks to run again later once; anything else
 * succeeds. Every run is journalled first.
 */
@ApplicationScoped
public class OutcomeCards {
    public static final String GROUP = "outcome-cards";
    public static final Duration DELAY = Duration.ofSeconds(1);

    @Inject
    Journal journal;

    void charge(@Observes @ConsumerGroup(stream = Payment.STREAM, group = GROUP) Payment payment, MessageMeta meta)
            throws SQLException {
        journal.record(meta, payment);
        String order = payment.order();
        if (order.startsWith("fail-once-") && meta.attempt() == 1) {
            throw new IllegalStateException("card gateway timed out for " + order);
        }
        if (order.startsWith("terminal-")) {
            throw Outcome.terminal("card declined for " + order);
        }
        if (order.startsWith("delay-") && meta.attempt() == 1) {
            throw Outcome.delay(DELAY);
        }
    }
}
