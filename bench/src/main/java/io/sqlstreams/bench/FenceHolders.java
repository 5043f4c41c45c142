package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import javax.sql.DataSource;

import io.sqlstreams.Producer;

/**
 * The chaos lab's fence holders ({@code --fence-holders on}, the default): {@link HeldProducers}, whose open
 * transactions the stream's fresh claims must wait for, and {@link UnrelatedHolders}, which they must not wait for,
 * all on {@link HolderConnections}. Their two-phase transactions need {@code max_prepared_transactions} above 0; on
 * a server without it they are left out and the report says so. Closing rolls back whatever the lab left prepared
 * and drops the database created for the run (the holders stopped first, if a failure left them running).
 */
final class FenceHolders implements AutoCloseable {
    private final boolean on;
    private final DataSource dataSource;
    private final PreparedTransactions prepared;
    private final String otherDatabase;
    private final HeldProducers held;
    private final UnrelatedHolders unrelated;

    private FenceHolders(boolean on, DataSource dataSource, PreparedTransactions prepared, String otherDatabase,
                         HeldProducers held, UnrelatedHolders unrelated) {
        this.on = on;
        this.dataSource = dataSource;
        this.prepared = prepared;
        this.otherDatabase = otherDatabase;
        this.held = held;
        this.unrelated = unrelated;
    }

    /**
     * Starts the holders ({@code on}), or nothing.
     *
     * @param ledgerSchema  the run's ledger schema: it names the scratch table, the other database and every
     *                      prepared transaction
     * @param firstSeq      the held producers' first sequence number
     * @param runId         the prefix of the idempotency keys
     * @param longestUnrelatedHold the longest an unrelated holder stays open
     */
    static FenceHolders start(boolean on, BenchServer server, String ledgerSchema, Producer<BenchPayload> producer,
                              ChaosPlan plan, long firstSeq, String runId, Duration longestUnrelatedHold)
            throws SQLException {
        HolderConnections connections = new HolderConnections(server);
        PreparedTransactions prepared = new PreparedTransactions(connections, "sqlstreams_chaos_" + ledgerSchema + "_");
        String otherDatabase = ledgerSchema + "_holders";
        String scratchTable = ledgerSchema + ".chaos_scratch";
        boolean preparedAllowed;
        try (Connection connection = connections.open(); Statement statement = connection.createStatement()) {
            preparedAllowed = PreparedTransactions.allowed(connection);
            if (on) {
                statement.execute("CREATE TABLE " + scratchTable + " (id bigserial PRIMARY KEY)");
                statement.execute("CREATE DATABASE " + otherDatabase);
            }
        }
        Set<UnrelatedHolders.Place> places = !on ? EnumSet.noneOf(UnrelatedHolders.Place.class)
                : preparedAllowed ? EnumSet.allOf(UnrelatedHolders.Place.class)
                : EnumSet.of(UnrelatedHolders.Place.SAME_DATABASE, UnrelatedHolders.Place.OTHER_DATABASE);
        return new FenceHolders(on, server.dataSource(), prepared, otherDatabase,
                new HeldProducers(on ? HeldProducers.THREADS : 0, producer, plan, firstSeq, runId, connections,
                        prepared, preparedAllowed),
                new UnrelatedHolders(places, connections, prepared, scratchTable, otherDatabase, longestUnrelatedHold,
                        plan.seed()));
    }

    /** Stops the held producers, waits for their transactions to end, and decides each from the log if need be. */
    HeldProducers.Outcome stopProducing(String logTable) throws Exception {
        return held.stop().resolved(dataSource, logTable);
    }

    UnrelatedHolders.Outcome stopUnrelated() throws Exception {
        return unrelated.stop();
    }

    /** The lab's transactions still prepared; none once every holder has stopped. */
    List<String> preparedLeft() throws SQLException {
        return prepared.left();
    }

    /** The report's lines on what the holders did. */
    List<String> describe(HeldProducers.Outcome producing, UnrelatedHolders.Outcome holding) {
        if (!on) {
            return List.of("Fence holders: off (`--fence-holders off`).");
        }
        return List.of(producing.describe(), holding.describe());
    }

    @Override
    public void close() throws Exception {
        if (!on) {
            return;
        }
        held.stop();
        unrelated.stop();
        prepared.rollBackLeft();
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + otherDatabase + " WITH (FORCE)");
        }
    }
}
