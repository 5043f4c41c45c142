package io.sqlstreams.sample.web;

import java.time.Instant;

import io.sqlstreams.MessageWhereabouts.Placement;
import io.sqlstreams.MessageWhereabouts.State;
import io.sqlstreams.sample.charges.Charge;
import io.sqlstreams.sample.orders.OrderStatus;

/**
 * Where an order's payment stands: {@code charged} or {@code declined} once decided, and before that where its
 * request is in the {@code charge-cards} group ({@code pending}, {@code in_flight}, {@code retrying} after a
 * failed attempt, {@code waiting} behind another payment of the customer, {@code dead} once given up).
 *
 * @param state       that word
 * @param attempts    how many times charge-cards has tried it so far
 * @param lastError   why the last attempt failed, as one line of code and message ({@link PublicError}), or null
 * @param nextAttempt when it is tried again, while it is retrying; else null
 */
public record PaymentView(String state, int attempts, String lastError, Instant nextAttempt) {

    /** A payment just requested: no group has seen it yet. */
    static PaymentView requested() {
        return new PaymentView(State.PENDING.wireName(), 0, null, null);
    }

    /** A charged payment: the attempt that charged it is its last. */
    static PaymentView charged(Charge charge) {
        return new PaymentView("charged", charge.attempt(), null, null);
    }

    /** A payment not charged (yet), from where its request stands in charge-cards. */
    static PaymentView of(OrderStatus status, Placement placement) {
        String state = status == OrderStatus.DECLINED ? "declined" : placement.state().wireName();
        return new PaymentView(state, placement.runs(), PublicError.of(placement.lastError()),
                placement.runAfter());
    }
}
