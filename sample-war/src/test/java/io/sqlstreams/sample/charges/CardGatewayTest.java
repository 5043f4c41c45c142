package io.sqlstreams.sample.charges;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CardGatewayTest {
    private final CardGateway gateway = new CardGateway();

    @Test
    void approvesAmountsUpToTheLimit() {
        assertThat(gateway.decide("ada", 1234, 1)).isEqualTo(GatewayDecision.APPROVED);
        assertThat(gateway.decide("ada", CardGateway.LIMIT_CENTS, 1)).isEqualTo(GatewayDecision.APPROVED);
    }

    @Test
    void declinesAmountsAboveTheLimitOnEveryAttempt() {
        assertThat(gateway.decide("ada", CardGateway.LIMIT_CENTS + 1, 1)).isEqualTo(GatewayDecision.DECLINED);
        assertThat(gateway.decide("ada", CardGateway.LIMIT_CENTS + 1, 4)).isEqualTo(GatewayDecision.DECLINED);
        assertThat(gateway.decide("flaky-bob", CardGateway.LIMIT_CENTS + 1, 1)).isEqualTo(GatewayDecision.DECLINED);
    }

    @Test
    void isUnavailableToAFlakyCustomerOnTheFirstAttemptOnly() {
        assertThat(gateway.decide("flaky-bob", 1234, 1)).isEqualTo(GatewayDecision.UNAVAILABLE);
        assertThat(gateway.decide("flaky-bob", 1234, 2)).isEqualTo(GatewayDecision.APPROVED);
        assertThat(gateway.decide("bob-flaky", 1234, 1)).isEqualTo(GatewayDecision.APPROVED);
    }
}
