package io.sqlstreams.tck.deployment.slow;

import java.sql.SQLException;
import java.time.Instant;

import io.sqlstreams.ConsumerGroup;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.tck.deployment.ChargeCards;
import io.sqlstreams.tck.deployment.Journal;
import io.sqlstreams.tck.deployment.Payment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * The charge-cards group with work that takes a while (a card gateway's round trip), journalled with when it
 * started and ended.
 */
@ApplicationScoped
public class SlowChargeCards {
    public static final long WORK_MILLIS = 200;

    @Inject
    Journal journal;

    void charge(@Observes @ConsumerGroup(stream = Payment.STREAM, group = ChargeCards.GROUP) Payment payment,
                MessageMeta meta) throws SQLException, InterruptedException {
        Instant started = Instant.now();
        Thread.sleep(WORK_MILLIS);
        journal.record(meta, payment, started, Instant.now(), true);
    }
}
