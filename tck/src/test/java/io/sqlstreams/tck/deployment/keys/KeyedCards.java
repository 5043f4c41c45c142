package io.sqlstreams.tck.deployment.keys;

import java.sql.SQLException;
import java.time.Instant;

import io.sqlstreams.ConsumerGroup;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.tck.deployment.Journal;
import io.sqlstreams.tck.deployment.Payment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * The keyed group: each run takes a few milliseconds of work, and the first run of every message whose order
 * ends in 0 or 5 fails, so keys see retries. Every run is journalled with its interval and result.
 */
@ApplicationScoped
public class KeyedCards {
    public static final String GROUP = "keyed-cards";
    private static final long WORK_MILLIS = 5;

    @Inject
    Journal journal;

    void charge(@Observes @ConsumerGroup(stream = Payment.STREAM, group = GROUP) Payment payment, MessageMeta meta)
            throws SQLException, InterruptedException {
        Instant started = Instant.now();
        Thread.sleep(WORK_MILLIS);
        boolean fails = meta.attempt() == 1 && (payment.order().endsWith("0") || payment.order().endsWith("5"));
        journal.record(meta, payment, started, Instant.now(), !fails);
        if (fails) {
            throw new IllegalStateException("first run of " + payment.order() + " fails");
        }
    }
}
