package io.sqlstreams.bench;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

import javax.sql.DataSource;

import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;

/**
 * The chaos lab's held producers: threads that each, one transaction after another, produce one message through
 * {@code produce(connection, …)} on a connection with auto-commit off and keep the transaction open for a while
 * before it ends as {@link ChaosPlan#held} says ({@link HeldForm}). An open one holds its stream's fence: fresh
 * claims must not move past its id until it ends. Their sequence numbers count up from the steady producer's
 * last, and each message has the key and policy its plan gives it.
 *
 * <p>A message counts as produced exactly when its transaction committed. A failure (a restart) before the commit
 * or PREPARE rolls it back; one after PREPARE was sent leaves it to {@link PreparedTransactions#finish}, which
 * finds it by name and finishes it as planned; a commit whose answer was lost is decided by looking for the message
 * in the log once everything has ended ({@link Outcome#resolved}).
 */
final class HeldProducers {
    static final int THREADS = 2;
    private static final Duration PAUSE_AFTER_FAILURE = Duration.ofSeconds(1);

    /** How a held transaction's end became known. */
    enum Ending {
        /** It ended as its form says, and the answer came back. */
        AS_PLANNED,
        /** A failure ended it before its commit or PREPARE was sent: PostgreSQL rolled it back. */
        CUT,
        /** A failure struck once PREPARE was sent; its name in {@code pg_prepared_xacts} settled it. */
        RECOVERED,
        /** Its commit (or COMMIT PREPARED) was sent and the answer lost: the log tells whether it committed. */
        LOOKED_UP
    }

    /**
     * One held transaction.
     *
     * @param produced whether its message is in the log (for {@link Ending#LOOKED_UP}: once {@linkplain
     *                 Outcome#resolved resolved})
     */
    record Result(long seq, HeldForm form, Ending ending, boolean produced) {

        /** Whether the transaction committed, as far as is known. */
        boolean committed() {
            return switch (ending) {
                case AS_PLANNED, RECOVERED -> form.commits();
                case CUT -> false;
                case LOOKED_UP -> produced;
            };
        }

        /** Whether it was (or may have been) prepared. */
        boolean prepared() {
            return form.prepared() && ending != Ending.CUT;
        }
    }

    /** Every held transaction of the run. */
    record Outcome(List<Result> results, boolean preparedAllowed) {

        /** The sequence numbers of the messages produced, ascending. */
        long[] produced() {
            return results.stream().filter(Result::produced).mapToLong(Result::seq).sorted().toArray();
        }

        /** Decides every {@link Ending#LOOKED_UP} transaction by whether its message is in {@code logTable}. */
        Outcome resolved(DataSource dataSource, String logTable) throws SQLException {
            long[] unknown = results.stream().filter(result -> result.ending() == Ending.LOOKED_UP)
                    .mapToLong(Result::seq).toArray();
            if (unknown.length == 0) {
                return this;
            }
            Set<Long> found = inLog(dataSource, logTable, unknown);
            return new Outcome(results.stream().map(result -> result.ending() == Ending.LOOKED_UP
                    ? new Result(result.seq(), result.form(), result.ending(), found.contains(result.seq()))
                    : result).toList(), preparedAllowed);
        }

        long count(boolean prepared, boolean committed) {
            return results.stream().filter(result -> result.prepared() == prepared
                    && result.committed() == committed).count();
        }

        long count(Ending ending) {
            return results.stream().filter(result -> result.ending() == ending).count();
        }

        /** One line for the report and the summary. */
        String describe() {
            long rolledBackToSavepoint = results.stream().filter(result -> !result.prepared() && result.committed()
                    && result.form().rolledBackToSavepoint()).count();
            return String.format(Locale.ROOT, "Held producer transactions (%d threads, one after another, each"
                            + " producing one message and then held open 0–%d s%s): %,d in all, %,d messages produced"
                            + " through them — %,d committed (%,d of them after rolling back to their savepoint: no"
                            + " message), %,d rolled back, %,d prepared and committed, %,d prepared and rolled back."
                            + " Failures: %,d cut before their commit or PREPARE (rolled back), %,d settled through"
                            + " pg_prepared_xacts, %,d decided by the log after the answer to their commit was lost"
                            + " (%,d of their messages found there).", THREADS, ChaosPlan.LONGEST_HELD.toSeconds(), preparedAllowed ? ""
                            : "; the server has max_prepared_transactions = 0, so none is prepared", results.size(),
                    produced().length, count(false, true), rolledBackToSavepoint, count(false, false),
                    count(true, true), count(true, false), count(Ending.CUT), count(Ending.RECOVERED),
                    count(Ending.LOOKED_UP), results.stream().filter(result -> result.ending() == Ending.LOOKED_UP
                            && result.produced()).count());
        }

        private static Set<Long> inLog(DataSource dataSource, String logTable, long[] seqs) throws SQLException {
            Set<Long> found = new HashSet<>();
            try (Connection connection = dataSource.getConnection();
                 PreparedStatement select = connection.prepareStatement("SELECT DISTINCT (payload->>'id')::bigint"
                         + " FROM " + logTable + " WHERE (payload->>'id')::bigint = ANY (?)")) {
                Array array = connection.createArrayOf("bigint", LongStream.of(seqs).boxed().toArray());
                select.setArray(1, array);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        found.add(rows.getLong(1));
                    }
                }
            }
            return found;
        }
    }

    /** How far a held transaction got before it ended or failed. */
    private enum Reached {
        NOTHING_SENT, COMMIT_SENT, PREPARE_SENT, PREPARED
    }

    private final Producer<BenchPayload> producer;
    private final ChaosPlan plan;
    private final String runId;
    private final HolderConnections connections;
    private final PreparedTransactions prepared;
    private final boolean preparedAllowed;
    private final AtomicLong nextSeq;
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final ExecutorService threads;
    private final List<Future<List<Result>>> running = new ArrayList<>();

    /**
     * Starts {@code threads} held producers (none: they are off).
     *
     * @param firstSeq the first sequence number, past the steady producer's
     * @param runId    the prefix of every idempotency key, as the steady producer's
     */
    HeldProducers(int threads, Producer<BenchPayload> producer, ChaosPlan plan, long firstSeq, String runId,
                  HolderConnections connections, PreparedTransactions prepared, boolean preparedAllowed) {
        this.producer = producer;
        this.plan = plan;
        this.runId = runId;
        this.connections = connections;
        this.prepared = prepared;
        this.preparedAllowed = preparedAllowed;
        this.nextSeq = new AtomicLong(firstSeq);
        this.threads = Executors.newFixedThreadPool(Math.max(1, threads), runnable -> {
            Thread thread = new Thread(runnable, "chaos-held-producer");
            thread.setDaemon(true);
            return thread;
        });
        for (int t = 0; t < threads; t++) {
            running.add(this.threads.submit(this::holdOneAfterAnother));
        }
    }

    /** Lets every thread end its transaction and begin no other; returns what they did. */
    Outcome stop() throws Exception {
        stopping.set(true);
        List<Result> results = new ArrayList<>();
        try {
            for (Future<List<Result>> thread : running) {
                results.addAll(thread.get(ChaosPlan.LONGEST_HELD.plus(PreparedTransactions.GIVE_UP).toSeconds() + 30,
                        TimeUnit.SECONDS));
            }
        } finally {
            threads.shutdownNow();
        }
        return new Outcome(List.copyOf(results), preparedAllowed);
    }

    private List<Result> holdOneAfterAnother() throws InterruptedException {
        List<Result> results = new ArrayList<>();
        while (!stopping.get()) {
            Result result = hold(nextSeq.getAndIncrement());
            results.add(result);
            if (result.ending() == Ending.CUT) {
                Thread.sleep(PAUSE_AFTER_FAILURE.toMillis());
            }
        }
        return results;
    }

    private Result hold(long seq) throws InterruptedException {
        ChaosPlan.Held held = plan.held(seq, preparedAllowed);
        HeldForm form = held.form();
        String gid = prepared.gid("held_" + seq);
        Reached reached = Reached.NOTHING_SENT;
        try (Connection connection = connections.open()) {
            connection.setAutoCommit(false);
            produce(connection, seq, form);
            if (form.prepared()) {
                reached = Reached.PREPARE_SENT;
                PreparedTransactions.prepare(connection, gid);
                reached = Reached.PREPARED;
            } else {
                Thread.sleep(held.hold().toMillis());
                if (!form.commits()) {
                    connection.rollback();
                    return new Result(seq, form, Ending.AS_PLANNED, false);
                }
                reached = Reached.COMMIT_SENT;
                connection.commit();
                return new Result(seq, form, Ending.AS_PLANNED, form.keepsMessage());
            }
        } catch (SQLException | RuntimeException e) {
            if (reached == Reached.NOTHING_SENT) {
                return new Result(seq, form, Ending.CUT, false);
            }
            if (reached == Reached.COMMIT_SENT) {
                return new Result(seq, form, Ending.LOOKED_UP, false);
            }
            // PREPARE was sent: whether it took effect, its name in pg_prepared_xacts tells
        }
        if (reached == Reached.PREPARED) {
            Thread.sleep(held.hold().toMillis());
        }
        return switch (prepared.finish(gid, form.commits())) {
            case FINISHED -> new Result(seq, form, reached == Reached.PREPARED ? Ending.AS_PLANNED : Ending.RECOVERED,
                    form.commits());
            case FINISHED_AFTER_FAILURE -> new Result(seq, form, Ending.RECOVERED, form.commits());
            // gone: never prepared, or finished by a try whose answer was lost; only a commit can have left a message
            case ABSENT -> new Result(seq, form, form.commits() ? Ending.LOOKED_UP : Ending.RECOVERED, false);
        };
    }

    private void produce(Connection connection, long seq, HeldForm form) throws SQLException {
        BenchPayload payload = BenchPayload.at(seq, BenchClock.micros(System.nanoTime()));
        ProduceOptions options = ChaosProducer.options(plan.message(seq), runId);
        if (!form.savepoint()) {
            producer.produce(connection, payload, options);
            return;
        }
        Savepoint savepoint = connection.setSavepoint();
        producer.produce(connection, payload, options);
        if (form.rolledBackToSavepoint()) {
            connection.rollback(savepoint);
        } else {
            connection.releaseSavepoint(savepoint);
        }
    }
}
