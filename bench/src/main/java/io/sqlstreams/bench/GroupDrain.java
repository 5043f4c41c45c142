package io.sqlstreams.bench;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInspection;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.SessionCounters;
import io.sqlstreams.SqlStreams;

/**
 * Drains of one pre-filled stream, each by a fresh consumer group (cursor at the beginning) with one session per
 * client and a handler that records every id it handles: the drain ends when every stored message was handled,
 * when nothing moved for the stall time, or when its time limit passed; then the sessions are closed and the
 * ledger is checked by ids. Its msg/s runs from the first session's start (its claim loop running) to the last
 * handled message.
 */
final class GroupDrain {
    private final BenchContext context;
    private final BenchStream stream;
    private final LibraryPrefill.Filled filled;
    private final LedgerQueries.RowCount rows;
    private final long[] storedIds;

    /** One drain: what the handlers saw, how long it took, the final counters, the group after it and the ledger. */
    record Outcome(HandledLog log, double seconds, SessionCounters counters, ConsumerInspection after,
                   long[] handledIds, Ledger ledger) {

        double throughput() {
            return log.count() / seconds;
        }
    }

    private GroupDrain(BenchContext context, BenchStream stream, LibraryPrefill.Filled filled,
                       LedgerQueries.RowCount rows, long[] storedIds) {
        this.context = context;
        this.stream = stream;
        this.filled = filled;
        this.rows = rows;
        this.storedIds = storedIds;
    }

    /** Reads what {@code stream} holds once, for the ledger of every drain of it. */
    static GroupDrain of(BenchContext context, BenchStream stream, LibraryPrefill.Filled filled) throws SQLException {
        return new GroupDrain(context, stream, filled, stream.rows(), stream.storedIds());
    }

    /** The no-op handler of a drain: it records the id of each message it is given. */
    static MessageHandler<BenchPayload> recordingIds(HandledLog log) {
        return payload -> log.record(MessageMeta.current().messageId());
    }

    long messages() {
        return filled.ids().length;
    }

    /**
     * Drains the stream with a fresh group called {@code group}, declared with {@code config}.
     *
     * @param handler    the handler, given the log it must record every handled id into
     * @param withValues whether the handler records a figure with each id
     * @param limit      when the drain stops although messages are left (a warm-up's); empty for none
     * @param details    where the drain's counters and anything that went wrong are noted for the report
     */
    Outcome run(List<SqlStreams> clients, String group, ConsumerConfig config, ConsumeOptions consume,
                Function<HandledLog, MessageHandler<BenchPayload>> handler, boolean withValues,
                Optional<Duration> limit, List<String> details) throws Exception {
        long messages = messages();
        HandledLog log = new HandledLog(messages / clients.size() / consume.resolvedMessageConcurrency() + 1024,
                withValues);
        GroupSessions.declare(clients.get(0), stream.name(), group, config);
        double seconds;
        SessionCounters counters;
        try (GroupSessions sessions = GroupSessions.start(clients, stream.name(), group, handler.apply(log), consume,
                config)) {
            awaitDrained(log, sessions, limit, details);
            if (log.count() == 0) {
                throw new IllegalStateException("the drain handled nothing; " + sessions.describeCounters());
            }
            seconds = (log.lastNanos() - sessions.firstStartedNanos()) / 1e9;
            sessions.close();
            counters = sessions.counters();
            details.add(sessions.repetitionLine(details));
            sessions.failures().forEach(details::add);
        }
        ConsumerInspection after = clients.get(0).stream(stream.name(), BenchPayload.class).consumer(group).inspect();
        if (after.committed() != after.head() && limit.isEmpty()) {
            details.add("after close the committed cursor is short of the head: " + GroupSessions.describe(after));
        }
        long[] handled = log.sortedIds();
        return new Outcome(log, seconds, counters, after, handled,
                DeliveryLedger.of(filled.ids(), filled.duplicates(), rows, storedIds, handled));
    }

    /**
     * Waits until every message was handled. A drain that makes no progress for the stall time gives up: the
     * outcome keeps what was handled, its ledger counts the rest as undelivered (and so fails), and the scenario
     * goes on.
     */
    private void awaitDrained(HandledLog log, GroupSessions sessions, Optional<Duration> limit, List<String> details)
            throws InterruptedException {
        Duration stall = context.smoke() ? Duration.ofSeconds(5) : Duration.ofSeconds(20);
        long start = System.nanoTime();
        long lastCount = -1;
        long lastProgress = start;
        while (!log.awaitCount(messages(), Duration.ofSeconds(1))
                && (limit.isEmpty() || System.nanoTime() - start < limit.get().toNanos())) {
            sessions.checkRunning();
            long count = log.count();
            if (count != lastCount) {
                lastCount = count;
                lastProgress = System.nanoTime();
            } else if (System.nanoTime() - lastProgress > stall.toNanos()) {
                details.add("**STALLED**: handled " + count + " of " + messages() + ", no progress for " + stall
                        + "; " + sessions.describeCounters());
                context.progress().note("  " + details.get(details.size() - 1));
                return;
            }
        }
    }
}
