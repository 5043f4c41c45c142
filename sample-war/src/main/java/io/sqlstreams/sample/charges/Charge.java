package io.sqlstreams.sample.charges;

import java.time.OffsetDateTime;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A successful charge. Keyed by its order, so an order can be charged once only. */
@Entity
@Table(name = "sample_charge")
public class Charge {

    @Id
    @Column(name = "order_id", length = 36)
    private String orderId;

    @Column(name = "charged_at", nullable = false, columnDefinition = "timestamp with time zone")
    private OffsetDateTime chargedAt;

    @Column(nullable = false)
    private int attempt;

    @Column(name = "message_id", nullable = false)
    private long messageId;

    protected Charge() {
    }

    /**
     * @param attempt   the delivery attempt that charged the card, starting at 1
     * @param messageId the id of the {@code PaymentRequestedV1} message in its stream
     */
    public Charge(String orderId, OffsetDateTime chargedAt, int attempt, long messageId) {
        this.orderId = orderId;
        this.chargedAt = chargedAt;
        this.attempt = attempt;
        this.messageId = messageId;
    }

    public String orderId() {
        return orderId;
    }

    public OffsetDateTime chargedAt() {
        return chargedAt;
    }

    public int attempt() {
        return attempt;
    }

    public long messageId() {
        return messageId;
    }
}
