package io.sqlstreams.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DeliveryLedgerTest {
    private static final LedgerQueries.RowCount THREE = new LedgerQueries.RowCount(3, 3);

    @Test
    void everyStoredIdHandledOnceBalances() {
        Ledger ledger = DeliveryLedger.of(new long[] {1, 2, 3}, 0, THREE, new long[] {1, 2, 3}, new long[] {1, 2, 3});

        assertThat(ledger.passed()).isTrue();
        assertThat(ledger.delivered()).isEqualTo(3);
        assertThat(ledger.undelivered()).isZero();
        assertThat(ledger.duplicates()).isZero();
    }

    @Test
    void aStoredIdNeverHandledIsUndeliveredAndFails() {
        Ledger ledger = DeliveryLedger.of(new long[] {1, 2, 3}, 0, THREE, new long[] {1, 2, 3}, new long[] {1, 3});

        assertThat(ledger.undelivered()).isEqualTo(1);
        assertThat(ledger.passed()).isFalse();
    }

    @Test
    void anIdHandledTwiceIsADuplicateAndStillPasses() {
        Ledger ledger = DeliveryLedger.of(new long[] {1, 2, 3}, 0, THREE, new long[] {1, 2, 3},
                new long[] {1, 2, 2, 3});

        assertThat(ledger.duplicates()).isEqualTo(1);
        assertThat(ledger.delivered()).isEqualTo(4);
        assertThat(ledger.passed()).isTrue();
    }

    @Test
    void aHandledIdTheLogDoesNotHoldIsUnexpected() {
        Ledger ledger = DeliveryLedger.of(new long[] {1, 2, 3}, 0, THREE, new long[] {1, 2, 3},
                new long[] {1, 2, 3, 9});

        assertThat(ledger.unexpected()).isEqualTo(1);
        assertThat(ledger.passed()).isFalse();
    }

    @Test
    void aQueueLedgerCountsTheEnqueuedSideAndChecksHandledIds() {
        Ledger ledger = DeliveryLedger.ofCounts(new long[] {1, 2, 3}, THREE, new long[] {1, 2, 3});

        assertThat(ledger.passed()).isTrue();
        assertThat(DeliveryLedger.ofCounts(new long[] {1, 2, 3}, THREE, new long[] {2, 3}).undelivered()).isEqualTo(1);
    }
}
