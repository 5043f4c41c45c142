package io.sqlstreams.tck.deployment.reactive;

import java.sql.SQLException;

import io.sqlstreams.ConsumerGroup;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.tck.deployment.Journal;
import io.sqlstreams.tck.deployment.Payment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/** A {@code @ConsumerGroup} observer of the stream the receipts channel produces to: it journals every receipt. */
@ApplicationScoped
public class ReceiptJournal {
    public static final String GROUP = "receipt-journal";

    @Inject
    Journal journal;

    void journal(@Observes @ConsumerGroup(stream = ReactiveCharges.RECEIPTS_STREAM, group = GROUP) Payment receipt,
                 MessageMeta meta) throws SQLException {
        journal.record(meta, receipt);
    }
}
