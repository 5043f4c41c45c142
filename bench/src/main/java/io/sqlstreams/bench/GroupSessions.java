package io.sqlstreams.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInspection;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.SessionCounters;
import io.sqlstreams.SqlStreams;

/**
 * The consume sessions of one consumer group in one measurement: one session per client, each client its own
 * engine (its own loops and handler pool) over the harness's shared connection pool, as separate processes would
 * be. Closing stops every session at once and keeps their final counters.
 */
final class GroupSessions implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final List<ConsumerSession> sessions;
    private final long firstStartedNanos;
    private final List<SessionCounters> finalCounters = new ArrayList<>();
    private boolean closed;

    private GroupSessions(List<ConsumerSession> sessions, long firstStartedNanos) {
        this.sessions = sessions;
        this.firstStartedNanos = firstStartedNanos;
    }

    /** Declares {@code group} on {@code stream} (defaults) through the first client; starts no session. */
    static void declare(SqlStreams client, String stream, String group) {
        declare(client, stream, group, ConsumerConfig.defaults());
    }

    /** Declares {@code group} on {@code stream} with {@code config} through the first client; starts no session. */
    static void declare(SqlStreams client, String stream, String group, ConsumerConfig config) {
        client.stream(stream, BenchPayload.class).consumer(group).register(config);
    }

    /** Starts one session of {@code group} through each of {@code clients}, in order, each awaited. */
    static GroupSessions start(List<SqlStreams> clients, String stream, String group,
                               MessageHandler<BenchPayload> handler, ConsumeOptions options)
            throws InterruptedException {
        return start(clients, stream, group, handler, options, ConsumerConfig.defaults());
    }

    /**
     * As {@link #start(List, String, String, MessageHandler, ConsumeOptions)}, each session declaring the group
     * with {@code config} (the newest declaration wins, so every session must declare the same).
     */
    static GroupSessions start(List<SqlStreams> clients, String stream, String group,
                               MessageHandler<BenchPayload> handler, ConsumeOptions options, ConsumerConfig config)
            throws InterruptedException {
        return start(clients, stream, group, config, instance -> instance.start(handler, options));
    }

    /**
     * As {@link #start(List, String, String, MessageHandler, ConsumeOptions, ConsumerConfig)}, each session started
     * by {@code starter} (with a handler of any form).
     */
    static GroupSessions start(List<SqlStreams> clients, String stream, String group, ConsumerConfig config,
                               Function<ConsumerInstance<BenchPayload>, ConsumerSession> starter)
            throws InterruptedException {
        List<ConsumerSession> sessions = new ArrayList<>();
        long first = 0;
        try {
            for (SqlStreams client : clients) {
                ConsumerInstance<BenchPayload> instance = client.stream(stream, BenchPayload.class).consumer(group)
                        .register(config);
                ConsumerSession session = starter.apply(instance);
                sessions.add(session);
                if (!session.awaitStarted(START_TIMEOUT)) {
                    throw new IllegalStateException("session " + session.id() + " of " + group + " did not start within "
                            + START_TIMEOUT);
                }
                if (first == 0) {
                    first = System.nanoTime();
                }
            }
        } catch (RuntimeException | InterruptedException e) {
            sessions.forEach(ConsumerSession::close);
            throw e;
        }
        return new GroupSessions(sessions, first);
    }

    /** When the first session had started (its claim loop running): the start of a drain. */
    long firstStartedNanos() {
        return firstStartedNanos;
    }

    /** Fails when a session stopped on its own. */
    void checkRunning() {
        for (ConsumerSession session : sessions) {
            if (!session.isRunning()) {
                throw new IllegalStateException("session " + session.id() + " stopped during the measurement"
                        + session.failure().map(f -> ": " + f).orElse(""));
            }
        }
    }

    /** Every session's counters, summed: final once closed. */
    SessionCounters counters() {
        List<SessionCounters> each = closed ? finalCounters : sessions.stream().map(ConsumerSession::counters).toList();
        return sum(each);
    }

    /** The summed counters on one line. */
    String describeCounters() {
        SessionCounters c = counters();
        return String.format(Locale.ROOT, "claimed=%d success=%d ready=%d deferred=%d dead=%d reclaimed=%d"
                        + " quarantined=%d abandoned=%d leaseLost=%d", c.claimed(), c.success(), c.ready(),
                c.deferred(), c.dead(), c.reclaimed(), c.quarantined(), c.abandoned(), c.leaseLost());
    }

    /** {@code rep <k>: <counters>}, k the {@link #nextRepetition} of {@code details}. */
    String repetitionLine(List<String> details) {
        return "rep " + nextRepetition(details) + ": " + describeCounters();
    }

    /** One more than the lines of {@code details} that start {@code rep }: the repetition a new line is about. */
    static long nextRepetition(List<String> details) {
        return details.stream().filter(d -> d.startsWith("rep ")).count() + 1;
    }

    /** Stops every session at once (each drains gracefully) and waits for all of them. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        CompletableFuture.allOf(sessions.stream()
                .map(session -> CompletableFuture.runAsync(session::close)).toArray(CompletableFuture[]::new)).join();
        sessions.forEach(session -> finalCounters.add(session.counters()));
        closed = true;
    }

    /** Failures of sessions that stopped with one, for the report. */
    List<String> failures() {
        return sessions.stream().filter(s -> s.failure().isPresent())
                .map(s -> "session " + s.id() + ": " + s.failure().get()).toList();
    }

    /** The group's head, claimed and committed cursor and open leases, on one line. */
    static String describe(ConsumerInspection inspection) {
        return "head=" + inspection.head() + " claimed=" + inspection.claimed() + " committed="
                + inspection.committed() + " openLeases=" + inspection.openLeases() + " exceptions="
                + inspection.exceptions();
    }

    private static SessionCounters sum(List<SessionCounters> counters) {
        long[] total = new long[11];
        for (SessionCounters c : counters) {
            long[] v = {c.claimed(), c.success(), c.superseded(), c.ready(), c.deferred(), c.dead(), c.reclaimed(),
                    c.quarantined(), c.abandoned(), c.leaseLost(), c.instanceReclaims()};
            for (int i = 0; i < v.length; i++) {
                total[i] += v[i];
            }
        }
        return new SessionCounters(total[0], total[1], total[2], total[3], total[4], total[5], total[6], total[7],
                total[8], total[9], total[10]);
    }
}
