package io.sqlstreams.tck.deployment.reactive;

import java.sql.SQLException;
import java.util.concurrent.CompletionStage;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import io.sqlstreams.MessageMeta;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.messaging.OutgoingMessage;
import io.sqlstreams.tck.deployment.Journal;
import io.sqlstreams.tck.deployment.Payment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Charges payments arriving on a Reactive Messaging channel of the sqlstreams connector, journalling each, and sends
 * a receipt for each to an outgoing channel, keyed by its order.
 */
@ApplicationScoped
public class ReactiveCharges {
    public static final String CHANNEL = "payments";
    public static final String GROUP = "reactive-charges";
    public static final String RECEIPTS = "receipts";
    public static final String RECEIPTS_STREAM = "payments.receipts";

    @Inject
    Journal journal;

    @Inject
    @Channel(RECEIPTS)
    Emitter<Payment> receipts;

    @Incoming(CHANNEL)
    public CompletionStage<Void> charge(Message<Payment> message) throws SQLException {
        journal.record(message.unwrap(MessageMeta.class), message.getPayload());
        String order = message.getPayload().order();
        receipts.send(OutgoingMessage.of(new Payment("receipt-" + order),
                ProduceOptions.builder().messageKey(order).build()));
        return message.ack();
    }
}
