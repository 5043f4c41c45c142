package io.sqlstreams.bench;

import java.util.Arrays;

/**
 * One measurement's account: what the writers were told was written against what the table holds, and for a
 * reading measurement what the reader saw. A ledger passes when nothing is lost, nothing unexpected is stored,
 * the table holds no id twice and, for readers, nothing is left undelivered. Duplicates are counted, not failed.
 *
 * @param acknowledged messages or rows the writers were told are committed (duplicate produce results excluded)
 * @param stored       {@code count(*)} of the table afterwards
 * @param distinct     {@code count(DISTINCT id)} of the table afterwards
 * @param lost         acknowledged but not stored
 * @param unexpected   stored but never acknowledged
 * @param duplicates   produce results marked duplicate, ids acknowledged twice, ids stored twice, rows read twice
 * @param delivered    rows the reader consumed; null for a measurement without a reader
 * @param undelivered  stored rows the reader never consumed; null for a measurement without a reader
 * @param violations   broken delivery promises the measurement checks on top (the {@code keys} scenario: per-key
 *                     order violations, overlapping runs of one key, ids handled successfully twice); null when
 *                     none are checked. A ledger with violations fails.
 */
record Ledger(long acknowledged, long stored, long distinct, long lost, long unexpected, long duplicates,
              Long delivered, Long undelivered, Long violations) {

    Ledger(long acknowledged, long stored, long distinct, long lost, long unexpected, long duplicates,
           Long delivered, Long undelivered) {
        this(acknowledged, stored, distinct, lost, unexpected, duplicates, delivered, undelivered, null);
    }

    /**
     * The ledger of a figure whose messages another figure of the same run accounts for (one phase of a run whose
     * ledger is the whole run's); the report leaves it out.
     */
    static final Ledger IN_ANOTHER_FIGURE = new Ledger(0, 0, 0, 0, 0, 0, null, null);

    /** The ledger of a measurement that writes nothing (a read-only baseline); the report leaves it out. */
    static final Ledger NOTHING_WRITTEN = new Ledger(0, 0, 0, 0, 0, 0, null, null);

    /** This ledger with {@code violations} broken promises counted against it. */
    Ledger withViolations(long violations) {
        return new Ledger(acknowledged, stored, distinct, lost, unexpected, duplicates, delivered, undelivered,
                violations);
    }

    /** A ledger by counts alone, for writers that are not told their ids. */
    static Ledger ofCounts(long acknowledged, LedgerQueries.RowCount rows) {
        return new Ledger(acknowledged, rows.stored(), rows.distinct(), Math.max(0, acknowledged - rows.distinct()),
                Math.max(0, rows.distinct() - acknowledged), rows.stored() - rows.distinct(), null, null);
    }

    /**
     * A ledger by ids: every acknowledged id is looked for among the stored ones and the other way round.
     *
     * @param acknowledgedIds  ids returned to the writers, ascending
     * @param duplicateResults results that reported a duplicate instead of an id
     * @param rows             the table's counts
     * @param storedIds        the table's ids, ascending
     */
    static Ledger ofIds(long[] acknowledgedIds, long duplicateResults, LedgerQueries.RowCount rows, long[] storedIds) {
        long[] acknowledged = distinct(acknowledgedIds);
        long[] stored = distinct(storedIds);
        long lost = 0;
        long unexpected = 0;
        int a = 0;
        int s = 0;
        while (a < acknowledged.length || s < stored.length) {
            if (s == stored.length || a < acknowledged.length && acknowledged[a] < stored[s]) {
                lost++;
                a++;
            } else if (a == acknowledged.length || stored[s] < acknowledged[a]) {
                unexpected++;
                s++;
            } else {
                a++;
                s++;
            }
        }
        long repeatedAcknowledgements = acknowledgedIds.length - acknowledged.length;
        return new Ledger(acknowledgedIds.length, rows.stored(), rows.distinct(), lost, unexpected,
                duplicateResults + repeatedAcknowledgements + rows.stored() - rows.distinct(), null, null);
    }

    /**
     * This ledger with a reader's account.
     *
     * @param consumed    rows the reader consumed
     * @param aboveCursor stored rows past the reader's final position
     */
    Ledger withDelivery(long consumed, long aboveCursor) {
        return new Ledger(acknowledged, stored, distinct, lost, unexpected,
                duplicates + Math.max(0, consumed - distinct), consumed, Math.max(aboveCursor, distinct - consumed));
    }

    /** Whether the report lists this ledger: not when another figure accounts for it or nothing was written. */
    boolean reported() {
        return this != IN_ANOTHER_FIGURE && this != NOTHING_WRITTEN;
    }

    boolean passed() {
        return lost == 0 && unexpected == 0 && stored == distinct && acknowledged == distinct
                && (undelivered == null || undelivered == 0) && (violations == null || violations == 0);
    }

    private static long[] distinct(long[] ascending) {
        return Arrays.stream(ascending).distinct().toArray();
    }
}
