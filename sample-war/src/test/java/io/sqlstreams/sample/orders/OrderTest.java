package io.sqlstreams.sample.orders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

import org.junit.jupiter.api.Test;

class OrderTest {
    private static final OffsetDateTime PLACED_AT = OffsetDateTime.of(2026, 5, 4, 10, 0, 0, 0, ZoneOffset.UTC);
    private static final OffsetDateTime LATER = PLACED_AT.plusSeconds(3);

    @Test
    void aNewOrderIsPlacedUnderAFreshUuid() {
        Order order = Order.place(new NewOrder("ada", 1234, "EUR"), PLACED_AT);

        assertThat(UUID.fromString(order.id()).toString()).isEqualTo(order.id());
        assertThat(order.status()).isEqualTo(OrderStatus.PLACED);
        assertThat(order.updatedAt()).isEqualTo(order.placedAt()).isEqualTo(PLACED_AT);
        assertThat(Order.place(new NewOrder("ada", 1234, "EUR"), PLACED_AT).id()).isNotEqualTo(order.id());
    }

    @Test
    void aPlacedOrderIsDecidedOnce() {
        Order charged = Order.place(new NewOrder("ada", 1234, "EUR"), PLACED_AT);
        charged.markCharged(LATER);

        assertThat(charged.status()).isEqualTo(OrderStatus.CHARGED);
        assertThat(charged.updatedAt()).isEqualTo(LATER);
        assertThatThrownBy(() -> charged.markDeclined(LATER)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already CHARGED");

        Order declined = Order.place(new NewOrder("ada", 1234, "EUR"), PLACED_AT);
        declined.markDeclined(LATER);

        assertThat(declined.status()).isEqualTo(OrderStatus.DECLINED);
        assertThatThrownBy(() -> declined.markCharged(LATER)).isInstanceOf(IllegalStateException.class);
    }
}
