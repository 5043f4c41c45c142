package io.sqlstreams.sample.orders;

import java.time.OffsetDateTime;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An order and where its payment stands. */
// "Order" is a reserved word in JPQL, so the entity is named otherwise
@Entity(name = "SampleOrder")
@Table(name = "sample_order")
public class Order {

    @Id
    @Column(length = 36)
    private String id;

    @Column(nullable = false, length = OrderRequestReader.MAX_CUSTOMER_LENGTH)
    private String customer;

    @Column(name = "amount_cents", nullable = false)
    private long amountCents;

    @Column(nullable = false, length = 3)
    private String currency;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 16)
    private OrderStatus status;

    @Column(name = "placed_at", nullable = false, columnDefinition = "timestamp with time zone")
    private OffsetDateTime placedAt;

    @Column(name = "updated_at", nullable = false, columnDefinition = "timestamp with time zone")
    private OffsetDateTime updatedAt;

    @Column(name = "payment_message_id")
    private Long paymentMessageId;

    protected Order() {
    }

    private Order(NewOrder request, OffsetDateTime now) {
        this.id = UUID.randomUUID().toString();
        this.customer = request.customer();
        this.amountCents = request.amountCents();
        this.currency = request.currency();
        this.status = OrderStatus.PLACED;
        this.placedAt = now;
        this.updatedAt = now;
    }

    /** A new order with a fresh id, {@link OrderStatus#PLACED}. */
    public static Order place(NewOrder request, OffsetDateTime now) {
        return new Order(request, now);
    }

    /** Remembers the id of the order's {@code PaymentRequestedV1} message, to follow it through the groups. */
    public void requestedPaymentAs(long messageId) {
        this.paymentMessageId = messageId;
    }

    public void markCharged(OffsetDateTime now) {
        moveTo(OrderStatus.CHARGED, now);
    }

    public void markDeclined(OffsetDateTime now) {
        moveTo(OrderStatus.DECLINED, now);
    }

    private void moveTo(OrderStatus decided, OffsetDateTime now) {
        if (status != OrderStatus.PLACED) {
            throw new IllegalStateException("order " + id + " is already " + status);
        }
        this.status = decided;
        this.updatedAt = now;
    }

    public String id() {
        return id;
    }

    public String customer() {
        return customer;
    }

    public long amountCents() {
        return amountCents;
    }

    public String currency() {
        return currency;
    }

    public OrderStatus status() {
        return status;
    }

    public OffsetDateTime placedAt() {
        return placedAt;
    }

    /** The id of the order's {@code PaymentRequestedV1} message; null only for an order placed before it was kept. */
    public Long paymentMessageId() {
        return paymentMessageId;
    }

    public OffsetDateTime updatedAt() {
        return updatedAt;
    }
}
