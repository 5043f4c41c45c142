package io.sqlstreams.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.ConsumerInspection;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.Outcome;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.SystemConfig;

/**
 * What a collector pass reads in the {@code collector} scenario: {@value #STREAMS} streams of the same number of
 * messages, each with {@value #GROUPS} groups. {@value #LAGGING} of them are registered and never consumed, so they
 * lag by the whole stream; the others consume it all with a handler that dead-letters every tenth message
 * ({@link Outcome#terminal}) and fails the fifth of every ten with a plain exception, whose exception row stays
 * ready (the group's first retry is an hour away) and holds the group's committed cursor back. Then the system is
 * registered, so its worker rows are there to read. The sessions have stopped before anything is measured.
 */
final class CollectorInstallation {
    static final int STREAMS = 10;
    static final int GROUPS = 5;
    static final int LAGGING = 2;
    static final Duration SETTLE = Duration.ofSeconds(60);
    static final ConsumerConfig FAILING_GROUP = ConsumerConfig.builder()
            .exceptionInitialBackoff(Duration.ofHours(1)).build();
    private static final ConsumeOptions SESSION = ConsumeOptions.builder().batchLimit(100).queueSize(200)
            .claimPollRate(Duration.ofMillis(20)).build();
    private static final MessageHandler<BenchPayload> HANDLER = payload -> {
        if (payload.id() % 10 == 0) {
            throw Outcome.terminal("every tenth message is dead-lettered");
        }
        if (payload.id() % 10 == 5) {
            throw new IllegalStateException("the fifth of every ten fails and waits for its retry");
        }
    };

    /** What the groups hold once their sessions have stopped, summed over every group of every stream. */
    record Totals(long messages, long lag, long dead, long ready) {

        Totals plus(ConsumerInspection group) {
            return new Totals(messages, lag + group.lag(), dead + group.dead(),
                    ready + group.exceptions().getOrDefault("ready", 0L));
        }

        Totals plusMessages(long produced) {
            return new Totals(messages + produced, lag, dead, ready);
        }

        String describe() {
            return String.format(Locale.ROOT, "%d streams of %,d messages (%,d in all) with %d groups each:"
                            + " %d never consumed, %d consumed by a handler that dead-letters every tenth message"
                            + " (Outcome.terminal) and fails the fifth of every ten with a plain exception (first"
                            + " retry an hour away). Over every group: lag %,d, dead letters %,d, ready exception"
                            + " rows %,d. The system is registered; its manager never runs.", STREAMS,
                    messages / STREAMS, messages, GROUPS, LAGGING, GROUPS - LAGGING, lag, dead, ready);
        }
    }

    private CollectorInstallation() {
    }

    /** Builds the installation through {@code client}, which must not run the system manager. */
    static Totals create(SqlStreams client, DataSource dataSource, long messagesPerStream, Progress progress)
            throws Exception {
        Totals totals = new Totals(0, 0, 0, 0);
        for (int s = 1; s <= STREAMS; s++) {
            BenchStream stream = BenchStream.register(client, dataSource, client.config().schema(), "collector");
            LibraryPrefill.Filled filled = LibraryPrefill.fill(stream, messagesPerStream);
            if (filled.ids().length != messagesPerStream) {
                throw new IllegalStateException(stream.name() + ": " + filled.ids().length + " of "
                        + messagesPerStream + " messages acknowledged");
            }
            List<ConsumerHandle<BenchPayload>> groups = IntStream.rangeClosed(1, GROUPS)
                    .mapToObj(g -> stream.handle().consumer((g <= LAGGING ? "lagging-" : "failing-") + g)).toList();
            groups.subList(0, LAGGING).forEach(ConsumerHandle::register);
            consume(groups.subList(LAGGING, GROUPS), messagesPerStream);
            totals = totals.plusMessages(messagesPerStream);
            for (ConsumerHandle<BenchPayload> group : groups) {
                totals = totals.plus(group.inspect());
            }
            progress.note(String.format(Locale.ROOT, "collector installation: stream %d/%d (%s) filled and consumed",
                    s, STREAMS, stream.name()));
        }
        client.system().register(SystemConfig.defaults());
        return totals;
    }

    /**
     * Registers each group and runs a session of it until every message has its outcome, then stops them. The ready
     * exception rows hold the committed cursor back (below the first of them), so these groups lag too.
     */
    private static void consume(List<ConsumerHandle<BenchPayload>> groups, long messages) throws Exception {
        long dead = (messages + 9) / 10;
        long ready = (messages + 4) / 10;
        List<ConsumerSession> sessions = new ArrayList<>();
        try {
            for (ConsumerHandle<BenchPayload> group : groups) {
                sessions.add(group.register(FAILING_GROUP).start(HANDLER, SESSION));
            }
            long deadline = System.nanoTime() + SETTLE.toNanos();
            for (ConsumerHandle<BenchPayload> group : groups) {
                ConsumerInspection seen = group.inspect();
                while (seen.claimed() < seen.head() || seen.openLeases() > 0 || seen.dead() != dead
                        || seen.exceptions().getOrDefault("ready", 0L) != ready) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(group.stream() + " / " + group.name() + " did not settle"
                                + " within " + SETTLE + ": claimed " + seen.claimed() + " of " + seen.head() + ", "
                                + seen.openLeases() + " open leases, exception rows " + seen.exceptions()
                                + ", expected " + dead + " dead and " + ready + " ready");
                    }
                    Thread.sleep(50);
                    seen = group.inspect();
                }
            }
        } finally {
            sessions.forEach(ConsumerSession::close);
        }
    }
}
