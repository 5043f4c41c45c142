package io.sqlstreams.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** The local queue's room: taken before a claim, given back as deliveries leave, resized as ranges grow. */
class LocalQueueTest {
    private static final Duration NO_WAIT = Duration.ZERO;

    @Test
    void aLargerQueueHasTheNewRoomAtOnce() throws InterruptedException {
        LocalQueue queue = new LocalQueue(4);
        assertThat(queue.takeRoom(4, NO_WAIT)).isEqualTo(4);

        queue.resize(16);

        assertThat(queue.takeRoom(12, NO_WAIT)).isEqualTo(12);
        assertThat(queue.takeRoom(1, NO_WAIT)).as("all of it taken").isZero();
    }

    @Test
    void aSmallerQueueTakesWhatIsFreeAndOwesTheRestUntilDeliveriesLeave() throws InterruptedException {
        LocalQueue queue = new LocalQueue(16);
        assertThat(queue.takeRoom(12, NO_WAIT)).isEqualTo(12);

        queue.resize(4);

        assertThat(queue.takeRoom(1, NO_WAIT)).as("the 4 free went, 8 more owed").isZero();
        for (int left = 0; left < 8; left++) {
            queue.left();
        }
        assertThat(queue.takeRoom(1, NO_WAIT)).as("8 left and paid the debt").isZero();
        for (int left = 0; left < 4; left++) {
            queue.left();
        }
        assertThat(queue.takeRoom(4, NO_WAIT)).as("the last 4 gave their room back").isEqualTo(4);
        assertThat(queue.takeRoom(1, NO_WAIT)).isZero();
    }
}
