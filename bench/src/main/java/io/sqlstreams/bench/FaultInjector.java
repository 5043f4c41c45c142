package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import javax.sql.DataSource;

/**
 * Strikes the faults of a {@link ChaosPlan} schedule, one at a time, each at its moment of the window: a kill
 * SIGKILLs the process of a consumer slot and starts its replacement; a storm terminates every backend of the
 * consumer processes (by their application name) {@value #STORM_ROUNDS} times, {@value #STORM_PAUSE_MS} ms apart;
 * a restart stops PostgreSQL and starts it again. Each fault is written to the ledger's {@code chaos_fault} table
 * at the server's clock.
 */
final class FaultInjector {
    static final int STORM_ROUNDS = 3;
    static final long STORM_PAUSE_MS = 250;

    /**
     * What was done.
     *
     * @param kills               consumer processes killed
     * @param storms              termination storms
     * @param backendsTerminated  backends terminated over every storm
     * @param restarts            PostgreSQL restarts
     * @param restartMillis       how long each restart took, until the server accepted connections again
     * @param timeline            one line per fault, for the report
     */
    record Log(int kills, int storms, long backendsTerminated, int restarts, List<Long> restartMillis,
               List<String> timeline) {
    }

    private final BenchServer server;
    private final ConsumerFleet fleet;
    private final RunLedger ledger;
    private final Progress progress;

    FaultInjector(BenchServer server, ConsumerFleet fleet, RunLedger ledger, Progress progress) {
        this.server = server;
        this.fleet = fleet;
        this.ledger = ledger;
        this.progress = progress;
    }

    /** Runs {@code faults} against the window that began at {@code windowStartNanos}; returns when all are done. */
    Log run(List<ChaosPlan.Fault> faults, long windowStartNanos) throws Exception {
        int kills = 0;
        int storms = 0;
        int restarts = 0;
        long terminated = 0;
        List<Long> restartMillis = new ArrayList<>();
        List<String> timeline = new ArrayList<>();
        for (ChaosPlan.Fault fault : faults) {
            long due = windowStartNanos + fault.at().toNanos();
            while (System.nanoTime() < due) {
                fleet.replaceExited();
                Thread.sleep(Math.max(1, Math.min(200, (due - System.nanoTime()) / 1_000_000)));
            }
            String at = String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - windowStartNanos) / 1e9);
            String line = switch (fault.kind()) {
                case KILL -> {
                    ConsumerFleet.Victim victim = fleet.kill(fault.slot());
                    ConsumerProcess killed = victim.killed();
                    ledger.recordFault(fault.kind(), killed.name(), "pid " + killed.pid());
                    kills++;
                    yield "SIGKILL " + killed.name() + " (pid " + killed.pid() + ")"
                            + (killed.busy() ? "" : " before its first run") + ", replaced by "
                            + victim.replacement().name();
                }
                case STORM -> {
                    long count = storm();
                    ledger.recordFault(fault.kind(), null, count + " backends");
                    storms++;
                    terminated += count;
                    yield "terminated " + count + " consumer backends in " + STORM_ROUNDS + " rounds";
                }
                case RESTART -> {
                    Duration took = server.restartAndAwait();
                    ledger.recordFault(fault.kind(), null, took.toMillis() + " ms");
                    restarts++;
                    restartMillis.add(took.toMillis());
                    yield "restarted PostgreSQL: accepting connections again after " + took.toMillis() + " ms";
                }
            };
            timeline.add(at + ": " + line);
            progress.note("  fault at " + at + ": " + line);
        }
        return new Log(kills, storms, terminated, restarts, List.copyOf(restartMillis), List.copyOf(timeline));
    }

    /** Terminates the consumers' backends, round after round; returns how many were terminated. */
    private long storm() throws SQLException, InterruptedException {
        DataSource dataSource = server.dataSource();
        long terminated = 0;
        for (int round = 0; round < STORM_ROUNDS; round++) {
            if (round > 0) {
                Thread.sleep(STORM_PAUSE_MS);
            }
            try (Connection connection = dataSource.getConnection();
                 PreparedStatement terminate = connection.prepareStatement("SELECT count(*) FILTER (WHERE"
                         + " pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = ?"
                         + " AND pid <> pg_backend_pid()")) {
                terminate.setString(1, ChaosGroup.APPLICATION_NAME);
                try (ResultSet row = terminate.executeQuery()) {
                    row.next();
                    terminated += row.getLong(1);
                }
            }
        }
        return terminated;
    }
}
