package io.sqlstreams.bench;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;

/**
 * The producing side of a ledger across processes: the ids the producer process was acknowledged (from its
 * {@link IdTable}) and what the stream's log holds, read once for the ledger of every consumer of that log.
 *
 * @param acknowledged every acknowledged id, ascending
 * @param duplicates   produce results the producer was told were duplicates
 * @param rows         the log's counts
 * @param stored       the log's ids, ascending
 */
record ProducedLog(long[] acknowledged, long duplicates, LedgerQueries.RowCount rows, long[] stored) {

    static ProducedLog read(BenchContext context, BenchStream stream, IdTable produced, long duplicates)
            throws SQLException {
        return new ProducedLog(produced.sortedIds(context.dataSource()), duplicates, stream.rows(), stream.storedIds());
    }

    /**
     * Has the producer process of {@code lab} pre-fill {@code messages} into {@code stream} ({@code produceBatch} of
     * 1,000 from 4 threads), keyed as {@link ScaleKeys} says when {@code keyed}, and reads the log.
     *
     * @param table the {@link IdTable} of the acknowledged ids, created here
     * @return the log, and the note saying how it was filled
     */
    static Filled prefill(ScaleLab lab, BenchStream stream, long messages, boolean keyed, String table)
            throws Exception {
        BenchContext context = lab.context();
        context.progress().note(String.format(Locale.ROOT, "pre-filling %,d messages from the producer process",
                messages));
        IdTable produced = IdTable.create(context.dataSource(), table);
        lab.producer().command("prefill " + stream.name() + " " + messages + (keyed ? " keyed " : " ")
                + produced.name());
        String line = lab.producer().awaitLine(ScaleProducerMain.PREFILLED + " " + produced.name(),
                Duration.ofSeconds(messages / 1_000 + 120), ProcessSessions.failures(produced.name()));
        String note = String.format(Locale.ROOT, "Backlog: %,d messages%s pre-filled once by the producer process"
                        + " (produceBatch of %d from %d threads, %s s), every acknowledged id written to a table;"
                        + " every drain reads the same log with a fresh group.", messages, keyed ? ", keyed k<i mod "
                        + ScaleKeys.KEYS + "> (even keys ordered, odd exclusive)," : "", LibraryPrefill.BATCH,
                LibraryPrefill.THREADS, line.split(" ")[4]);
        return new Filled(read(context, stream, produced, ProcessSessions.field(line, 3)), note);
    }

    /** A pre-filled log and the report's note about it. */
    record Filled(ProducedLog log, String note) {
    }

    /** The ledger of a consumer that handled {@code handledIds} (ascending, repeats included) from this log. */
    Ledger delivered(long[] handledIds) {
        return DeliveryLedger.of(acknowledged, duplicates, rows, stored, handledIds);
    }
}
