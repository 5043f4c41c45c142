package io.sqlstreams.sample.receipts;

import io.sqlstreams.ConsumerGroup;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.sample.PaymentChargedV1;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * The {@code receipts} group: issues the receipt of every charged payment, from the {@link PaymentChargedV1}
 * that {@code charge-cards} produces with the charge, so a declined or not yet charged order gets none. It runs on
 * the library's defaults.
 */
@ApplicationScoped
public class IssueReceipts {
    public static final String GROUP = "receipts";

    @Inject
    ReceiptBook receipts;

    void issue(@Observes @ConsumerGroup(stream = PaymentChargedV1.STREAM, group = GROUP)
               PaymentChargedV1 payment, MessageMeta meta) {
        receipts.issue(payment, meta);
    }
}
