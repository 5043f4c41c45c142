package io.sqlstreams.tck.deployment;

import java.sql.SQLException;

import io.sqlstreams.ConsumerGroup;
import io.sqlstreams.MessageMeta;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/** The charge-cards group: writes every payment it is given to the journal. */
@ApplicationScoped
public class ChargeCards {
    public static final String GROUP = "charge-cards";

    @Inject
    Journal journal;

    void charge(@Observes @ConsumerGroup(stream = Payment.STREAM, group = GROUP) Payment payment, MessageMeta meta)
            throws SQLException {
        journal.record(meta, payment);
    }
}
