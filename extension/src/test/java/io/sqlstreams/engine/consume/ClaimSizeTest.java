package io.sqlstreams.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.testing.SettableClock;

/** Claim sizes at the default 500 ms claim poll rate, the clock moved by the test. */
class ClaimSizeTest {
    private final SettableClock clock = SettableClock.standing();

    @Test
    void atTheDefaultBatchLimitABacklogGrowsTheRangesToAboutOnePollPeriodOfWorkAtMostDoublingEachTime() {
        ClaimSize size = ClaimSize.of(ConsumeOptions.defaults(), false, clock);
        assertThat(size.next()).isEqualTo(4);

        size.claimed(4, 4);
        assertThat(size.next()).as("nothing measured yet").isEqualTo(4);
        clock.advance(Duration.ofMillis(2));
        size.claimed(4, 4);
        assertThat(size.next()).as("4 taken in within 2 ms: ~1,000 per poll period, but at most twice 4")
                .isEqualTo(8);
        clock.advance(Duration.ofMillis(4));
        size.claimed(8, 8);
        assertThat(size.next()).isEqualTo(16);
        clock.advance(Duration.ofMillis(100));
        size.claimed(16, 16);
        assertThat(size.next()).as("8 taken in within 100 ms: 40 per poll period, but at most twice 16").isEqualTo(32);
        clock.advance(Duration.ofMillis(1_000));
        size.claimed(32, 32);
        assertThat(size.next()).as("16 within a second: 8 per poll period").isEqualTo(8);
    }

    @Test
    void whileRangesGrowTheQueueHoldsTwoOfThemAndShrinksBackWithThem() {
        ClaimSize size = ClaimSize.of(ConsumeOptions.defaults(), false, clock);
        assertThat(size.queueRoom(4)).isEqualTo(4);
        size.claimed(4, 4);
        clock.advance(Duration.ofMillis(1));
        size.claimed(4, 4);
        assertThat(size.queueRoom(4)).isEqualTo(16);
        assertThat(size.queueRoom(40)).as("a larger queue stays").isEqualTo(40);

        size.claimed(8, 3);
        assertThat(size.queueRoom(4)).isEqualTo(4);
    }

    @Test
    void aFastBacklogStopsGrowingAtTheGrowthLimit() {
        ClaimSize size = ClaimSize.of(ConsumeOptions.defaults(), false, clock);
        int asked = size.next();
        for (int claim = 0; claim < 12; claim++) {
            clock.advance(Duration.ofMillis(1));
            size.claimed(asked, asked);
            asked = size.next();
        }
        assertThat(asked).isEqualTo(ClaimSize.GROWTH_LIMIT);
    }

    @Test
    void aClaimThatDoesNotComeBackFullShrinksTheNextToTheBatchLimit() {
        ClaimSize size = ClaimSize.of(ConsumeOptions.defaults(), false, clock);
        size.claimed(4, 4);
        clock.advance(Duration.ofMillis(1));
        size.claimed(4, 4);
        assertThat(size.next()).isEqualTo(8);

        clock.advance(Duration.ofMillis(1));
        size.claimed(8, 5);
        assertThat(size.next()).isEqualTo(4);
        clock.advance(Duration.ofMillis(1));
        size.claimed(4, 0);
        assertThat(size.next()).isEqualTo(4);
    }

    @Test
    void anExplicitBatchLimitOrATransactionalHandlerKeepsItsRangesAtTheBatchLimit() {
        ClaimSize explicit = ClaimSize.of(ConsumeOptions.builder().batchLimit(4).build(), false, clock);
        ClaimSize transactional = ClaimSize.of(ConsumeOptions.defaults(), true, clock);
        for (ClaimSize size : new ClaimSize[] {explicit, transactional}) {
            for (int claim = 0; claim < 5; claim++) {
                clock.advance(Duration.ofMillis(1));
                size.claimed(4, 4);
            }
            assertThat(size.next()).isEqualTo(4);
            assertThat(size.queueRoom(4)).isEqualTo(4);
        }
    }
}
