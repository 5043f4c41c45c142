package io.sqlstreams.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LedgerTest {

    @Test
    void matchingIdsBalance() {
        Ledger ledger = Ledger.ofIds(new long[] {1, 2, 3}, 0, new LedgerQueries.RowCount(3, 3), new long[] {1, 2, 3});

        assertThat(ledger.passed()).isTrue();
        assertThat(ledger.lost()).isZero();
        assertThat(ledger.unexpected()).isZero();
    }

    @Test
    void missingAndExtraIdsAreLostAndUnexpected() {
        Ledger ledger = Ledger.ofIds(new long[] {1, 2, 4}, 0, new LedgerQueries.RowCount(3, 3), new long[] {1, 3, 4});

        assertThat(ledger.lost()).isEqualTo(1);
        assertThat(ledger.unexpected()).isEqualTo(1);
        assertThat(ledger.passed()).isFalse();
    }

    @Test
    void anIdAcknowledgedTwiceIsADuplicateAndUnbalancesTheCount() {
        Ledger ledger = Ledger.ofIds(new long[] {1, 2, 2}, 1, new LedgerQueries.RowCount(2, 2), new long[] {1, 2});

        assertThat(ledger.duplicates()).isEqualTo(2);
        assertThat(ledger.passed()).isFalse();
    }

    @Test
    void countsAloneFindRowsMissingOrExtra() {
        assertThat(Ledger.ofCounts(5, new LedgerQueries.RowCount(4, 4)).lost()).isEqualTo(1);
        assertThat(Ledger.ofCounts(5, new LedgerQueries.RowCount(6, 6)).unexpected()).isEqualTo(1);
        assertThat(Ledger.ofCounts(5, new LedgerQueries.RowCount(5, 5)).passed()).isTrue();
    }

    @Test
    void aReaderThatStoppedShortLeavesRowsUndelivered() {
        Ledger counted = Ledger.ofCounts(5, new LedgerQueries.RowCount(5, 5));

        assertThat(counted.withDelivery(5, 0).passed()).isTrue();
        assertThat(counted.withDelivery(3, 2).undelivered()).isEqualTo(2);
        assertThat(counted.withDelivery(3, 2).passed()).isFalse();
        assertThat(counted.withDelivery(6, 0).duplicates()).isEqualTo(1);
    }
}
