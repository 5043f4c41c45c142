package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Transactions that hold a transaction id and nothing of the lab's stream, one after another on a thread per
 * {@link Place}, each held open from {@value #SHORTEST_SECONDS} s up to a longest hold, until {@link #stop()}. A
 * server-wide fence would make every fresh claim wait for each of them; the per-stream fence must not. A failure
 * (a restart ends them) is counted, and the next one begins a second later.
 */
final class UnrelatedHolders {
    static final int SHORTEST_SECONDS = 1;
    private static final Duration PAUSE_AFTER_FAILURE = Duration.ofSeconds(1);

    enum Place {
        SAME_DATABASE("same database", "an insert into a scratch table of the ledger, left open"),
        OTHER_DATABASE("other database", "SELECT pg_current_xact_id() in a database created for the run, left open"),
        PREPARED("prepared", "an insert into the scratch table, PREPARE TRANSACTION, ROLLBACK PREPARED after the hold");

        private final String label;
        private final String description;

        Place(String label, String description) {
            this.label = label;
            this.description = description;
        }
    }

    /**
     * One place's holders.
     *
     * @param holds   transactions begun
     * @param cut     of them, ended by a failure
     * @param longest the longest time one was open
     */
    record Tally(long holds, long cut, Duration longest) {
    }

    /** What every place's holders did. */
    record Outcome(Map<Place, Tally> tallies, Duration longestPlanned) {

        long holds() {
            return tallies.values().stream().mapToLong(Tally::holds).sum();
        }

        /** One line for the report and the summary. */
        String describe() {
            List<String> places = new ArrayList<>();
            tallies.forEach((place, tally) -> places.add(String.format(Locale.ROOT, "%s %,d (%s; longest open %.1f s,"
                            + " %,d ended by a failure)", place.label, tally.holds(), place.description,
                    tally.longest().toMillis() / 1e3, tally.cut())));
            return String.format(Locale.ROOT, "Unrelated holders (transactions holding an xid, none of the lab's"
                            + " stream, each open %d–%d s, one after another per place through the window and the"
                            + " drain; application name %s, which the storms spare): %s.", SHORTEST_SECONDS,
                    longestPlanned.toSeconds(), HolderConnections.APPLICATION_NAME, String.join("; ", places));
        }
    }

    private final HolderConnections connections;
    private final PreparedTransactions prepared;
    private final String scratchTable;
    private final String otherDatabase;
    private final Duration longestHold;
    private final long seed;
    private final CountDownLatch stop = new CountDownLatch(1);
    private final ExecutorService threads;
    private final Map<Place, Future<Tally>> running = new EnumMap<>(Place.class);

    /**
     * Starts a thread for each of {@code places}.
     *
     * @param scratchTable  a table of the lab's database the holders insert into (schema-qualified)
     * @param otherDatabase the database of {@link Place#OTHER_DATABASE}
     */
    UnrelatedHolders(Set<Place> places, HolderConnections connections, PreparedTransactions prepared,
                     String scratchTable, String otherDatabase, Duration longestHold, long seed) {
        this.connections = connections;
        this.prepared = prepared;
        this.scratchTable = scratchTable;
        this.otherDatabase = otherDatabase;
        this.longestHold = longestHold;
        this.seed = seed;
        this.threads = Executors.newFixedThreadPool(Math.max(1, places.size()), runnable -> {
            Thread thread = new Thread(runnable, "chaos-unrelated-holder");
            thread.setDaemon(true);
            return thread;
        });
        for (Place place : places) {
            running.put(place, threads.submit(() -> holdOneAfterAnother(place)));
        }
    }

    /** Ends the open holds and begins no other; returns what each place did. */
    Outcome stop() throws Exception {
        stop.countDown();
        Map<Place, Tally> tallies = new EnumMap<>(Place.class);
        try {
            for (Map.Entry<Place, Future<Tally>> place : running.entrySet()) {
                tallies.put(place.getKey(), place.getValue().get(PreparedTransactions.GIVE_UP.toSeconds() + 30,
                        TimeUnit.SECONDS));
            }
        } finally {
            threads.shutdownNow();
        }
        return new Outcome(tallies, longestHold);
    }

    private Tally holdOneAfterAnother(Place place) throws InterruptedException {
        SplittableRandom random = new SplittableRandom(seed + place.ordinal());
        long holds = 0;
        long cut = 0;
        long longestNanos = 0;
        while (stop.getCount() > 0) {
            Duration hold = Duration.ofMillis(random.nextLong(SHORTEST_SECONDS * 1000L, longestHold.toMillis() + 1));
            long began = System.nanoTime();
            holds++;
            try {
                holdOnce(place, hold, holds);
                longestNanos = Math.max(longestNanos, System.nanoTime() - began);
            } catch (SQLException e) {
                longestNanos = Math.max(longestNanos, System.nanoTime() - began);
                cut++;
                stop.await(PAUSE_AFTER_FAILURE.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
        return new Tally(holds, cut, Duration.ofNanos(longestNanos));
    }

    private void holdOnce(Place place, Duration hold, long number) throws SQLException, InterruptedException {
        switch (place) {
            case SAME_DATABASE -> holdOpen(connections.open(), insert(), hold);
            case OTHER_DATABASE -> holdOpen(connections.openIn(otherDatabase), "SELECT pg_current_xact_id()", hold);
            case PREPARED -> holdPrepared(prepared.gid("unrelated_" + number), hold);
        }
    }

    private void holdOpen(Connection opened, String statement, Duration hold) throws SQLException, InterruptedException {
        try (Connection connection = opened; Statement open = connection.createStatement()) {
            connection.setAutoCommit(false);
            open.execute(statement);
            stop.await(hold.toMillis(), TimeUnit.MILLISECONDS);
            connection.rollback();
        }
    }

    /** Rolls the prepared transaction back after the hold, or after a failure if PREPARE went through. */
    private void holdPrepared(String gid, Duration hold) throws SQLException, InterruptedException {
        try {
            try (Connection connection = connections.open(); Statement open = connection.createStatement()) {
                connection.setAutoCommit(false);
                open.execute(insert());
                PreparedTransactions.prepare(connection, gid);
            }
            stop.await(hold.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            prepared.finish(gid, false);
        }
    }

    private String insert() {
        return "INSERT INTO " + scratchTable + " DEFAULT VALUES";
    }
}
