package io.sqlstreams.bench;

import java.util.Arrays;

/**
 * The ledger of a consuming measurement, by ids: what the producers were acknowledged against what the log holds
 * (as {@link Ledger#ofIds}), then what the handlers saw against what the log holds. An id handled twice is a
 * duplicate (counted, not failed); a stored id never handled is undelivered; a handled id the log does not hold is
 * unexpected.
 */
final class DeliveryLedger {

    private DeliveryLedger() {
    }

    /**
     * @param acknowledgedIds  ids returned to the producers, ascending
     * @param duplicateResults produce results that reported a duplicate
     * @param rows             the log's counts
     * @param storedIds        the log's ids, ascending
     * @param handledIds       every id a handler was called with, ascending, repeats included
     */
    static Ledger of(long[] acknowledgedIds, long duplicateResults, LedgerQueries.RowCount rows, long[] storedIds,
                     long[] handledIds) {
        return withHandled(Ledger.ofIds(acknowledgedIds, duplicateResults, rows, storedIds), storedIds, handledIds);
    }

    /**
     * For a log that retention thins while it is read: whether every acknowledged id reached the handlers, with the
     * distinct handled ids standing where the stored ones would (the report's "stored" column counts them).
     *
     * @param acknowledgedIds  ids returned to the producers, ascending
     * @param duplicateResults produce results that reported a duplicate
     * @param handledIds       every id a handler was called with, ascending, repeats included
     */
    static Ledger ofRetained(long[] acknowledgedIds, long duplicateResults, long[] handledIds) {
        long[] handled = Arrays.stream(handledIds).distinct().toArray();
        LedgerQueries.RowCount rows = new LedgerQueries.RowCount(handled.length, handled.length);
        return withHandled(Ledger.ofIds(acknowledgedIds, duplicateResults, rows, handled), handled, handledIds);
    }

    /**
     * For a queue whose rows do not expose the ids the harness gave them (JobRunr's jobs): the enqueued side by
     * counts, the delivered side by ids against the ids that were enqueued.
     *
     * @param enqueuedIds the ids handed to the queue, ascending
     * @param rows        the queue table's counts before the drain
     * @param handledIds  every id a handler was called with, ascending, repeats included
     */
    static Ledger ofCounts(long[] enqueuedIds, LedgerQueries.RowCount rows, long[] handledIds) {
        return withHandled(Ledger.ofCounts(enqueuedIds.length, rows), enqueuedIds, handledIds);
    }

    private static Ledger withHandled(Ledger produced, long[] storedIds, long[] handledIds) {
        long[] stored = Arrays.stream(storedIds).distinct().toArray();
        long[] handled = Arrays.stream(handledIds).distinct().toArray();
        long undelivered = 0;
        long unexpected = 0;
        int s = 0;
        int h = 0;
        while (s < stored.length || h < handled.length) {
            if (h == handled.length || s < stored.length && stored[s] < handled[h]) {
                undelivered++;
                s++;
            } else if (s == stored.length || handled[h] < stored[s]) {
                unexpected++;
                h++;
            } else {
                s++;
                h++;
            }
        }
        return new Ledger(produced.acknowledged(), produced.stored(), produced.distinct(), produced.lost(),
                produced.unexpected() + unexpected, produced.duplicates() + handledIds.length - handled.length,
                (long) handledIds.length, undelivered);
    }
}
