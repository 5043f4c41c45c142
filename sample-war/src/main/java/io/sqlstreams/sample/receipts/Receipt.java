package io.sqlstreams.sample.receipts;

import java.time.OffsetDateTime;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * The receipt a customer gets for a charged payment. Keyed by its order, so an order gets one receipt however
 * often the charge is delivered.
 */
@Entity
@Table(name = "sample_receipt")
public class Receipt {

    @Id
    @Column(name = "order_id", length = 36)
    private String orderId;

    @Column(name = "issued_at", nullable = false, columnDefinition = "timestamp with time zone")
    private OffsetDateTime issuedAt;

    @Column(name = "message_id", nullable = false)
    private long messageId;

    protected Receipt() {
    }

    /** @param messageId the id of the {@code PaymentChargedV1} message in its stream */
    public Receipt(String orderId, OffsetDateTime issuedAt, long messageId) {
        this.orderId = orderId;
        this.issuedAt = issuedAt;
        this.messageId = messageId;
    }

    public String orderId() {
        return orderId;
    }

    public OffsetDateTime issuedAt() {
        return issuedAt;
    }

    public long messageId() {
        return messageId;
    }
}
