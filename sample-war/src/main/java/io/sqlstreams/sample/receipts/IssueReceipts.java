package io.sqlstreams.sample.receipts;

import io.sqlstreams.ConsumerGroup;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.sample.PaymentRequestedV1;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * The {@code receipts} group: a second reader of the same stream with a cursor of its own, so it sees every
 * payment request whatever {@code charge-cards} does with it, and runs on the library's defaults.
 */
@ApplicationScoped
public class IssueReceipts {

    @Inject
    ReceiptBook receipts;

    void issue(@Observes @ConsumerGroup(stream = PaymentRequestedV1.STREAM, group = "receipts")
               PaymentRequestedV1 payment, MessageMeta meta) {
        receipts.issue(payment, meta);
    }
}
