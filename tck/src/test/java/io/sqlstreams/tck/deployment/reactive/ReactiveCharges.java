package io.sqlstreams.tck.deployment.reactive;

import java.sql.SQLException;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import io.sqlstreams.MessageMeta;
import io.sqlstreams.Outcome;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.messaging.OutgoingMessage;
import io.sqlstreams.tck.deployment.Journal;
import io.sqlstreams.tck.deployment.Payment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Charges payments arriving on a Reactive Messaging channel of the sqlstreams connector, journalling each run with
 * its interval, and sends a receipt for each charged one to an outgoing channel, keyed by its order. The order says
 * how a run ends: {@code …fail-once-…} is nacked with an exception on its first run, {@code …terminal-…} is nacked
 * with {@code Outcome.terminal}; anything else is acked. A receipt the outgoing channel cannot write (it nacks it, or
 * the emitter refuses it) is journalled, failed, as {@code nacked-receipt-<order> <why>}: the caller heard of it.
 */
@ApplicationScoped
public class ReactiveCharges {
    public static final String CHANNEL = "payments";
    public static final String GROUP = "reactive-charges";
    public static final String RECEIPTS = "receipts";
    public static final String RECEIPTS_STREAM = "payments.receipts";
    public static final String NACKED_RECEIPT = "nacked-receipt-";
    private static final long WORK_MILLIS = 2;

    @Inject
    Journal journal;

    @Inject
    @Channel(RECEIPTS)
    Emitter<Payment> receipts;

    @Incoming(CHANNEL)
    public CompletionStage<Void> charge(Message<Payment> message) throws SQLException, InterruptedException {
        MessageMeta meta = message.unwrap(MessageMeta.class);
        String order = message.getPayload().order();
        Instant started = Instant.now();
        Thread.sleep(WORK_MILLIS);
        boolean failsOnce = order.contains("fail-once-") && meta.attempt() == 1;
        boolean declined = order.contains("terminal-");
        journal.record(meta, message.getPayload(), started, Instant.now(), !failsOnce && !declined);
        if (failsOnce) {
            return message.nack(new IllegalStateException("card gateway timed out for " + order));
        }
        if (declined) {
            return message.nack(Outcome.terminal("card declined for " + order));
        }
        Payment receipt = new Payment("receipt-" + order);
        try {
            receipts.send(OutgoingMessage.of(receipt, ProduceOptions.builder().messageKey(order).build(),
                    Message.of(receipt, () -> CompletableFuture.completedFuture(null),
                            cause -> receiptNacked(meta, order, cause.toString()))));
        } catch (RuntimeException refused) {
            receiptNacked(meta, order, "refused by the emitter: " + refused);
        }
        return message.ack();
    }

    private CompletionStage<Void> receiptNacked(MessageMeta meta, String order, String why) {
        try {
            Instant now = Instant.now();
            journal.record(meta, new Payment(NACKED_RECEIPT + order + " " + why), now, now, false);
            return CompletableFuture.completedFuture(null);
        } catch (SQLException failed) {
            return CompletableFuture.failedFuture(failed);
        }
    }
}
