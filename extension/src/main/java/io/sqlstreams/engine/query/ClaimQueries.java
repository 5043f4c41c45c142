package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.sqlstreams.Concurrency;
import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.GroupFence;
import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;

/**
 * The statements of a group's claim family (claim.sql): the cursor and its snapshot fence, range leases and their
 * reads, reclaims, quarantines, surrenders and commits, and the committed cursor's advance.
 */
public final class ClaimQueries {
    /** What the observation statement saw; {@code xid} is null when the group is idle. */
    public record Observation(long head, long claimed, long settledHead, long pendingHead, boolean leaseExpired,
                              String xid) {
        /** Nothing was produced past any of the group's cursors: no transaction id was allocated. */
        public boolean idle() {
            return head == claimed && head == settledHead && head == pendingHead;
        }
    }

    /** The locked cursor row and which stored or new observation's fence has passed. */
    public record LockedCursor(long claimed, long settledHead, long pendingHead, boolean observedFencePassed,
                               boolean pendingFencePassed) {
    }

    /**
     * A move of the claimed cursor from {@code fromClaimed} to {@code toClaimed}, leasing the range between them
     * for {@code lease}; the stored observation is replaced by ({@code observedHead}, {@code observedXid}) when it
     * is unset or its fence has passed.
     */
    public record Advance(long fromClaimed, long toClaimed, long settledHead, boolean pendingFencePassed,
                          long observedHead, String observedXid, Duration lease) {
    }

    /** A deliverable log row, its payload and stored options as JSON text. */
    public record LogRow(long id, String routingKey, String messageKey, Long compactionRank, String payloadJson,
                         String optionsJson, String headersJson, Instant createdAt) {
    }

    /** An expired range taken over under a new token. */
    public record Reclaimed(String token, long low, long high, int reclaims) {
    }

    /**
     * The outcome of one delivery of a range: the exception row it leaves ({@code status} null for none) and the
     * delivery-log row it earns, written when the stream's mode logs {@code logStatus}.
     */
    public record OutcomeRow(long messageId, String messageKey, Concurrency concurrency, ExceptionStatus status,
                             int delays, Duration runAfter, String lastError, DeliveryLogStatus logStatus) {
    }

    /**
     * A range's outcomes, recorded under its {@code token}: {@code newLow} null resolves the whole range, otherwise
     * the range is narrowed to ({@code newLow}, high] and given back; an advance moves its low to {@code newLow} and
     * keeps the lease.
     */
    public record RangeRecord(String token, Long newLow, List<OutcomeRow> outcomes, DeliveryLogMode logMode) {
        public RangeRecord {
            outcomes = List.copyOf(outcomes);
        }
    }

    /** What a range record wrote: nothing unless the lease was still {@code owned}. */
    public record Recorded(boolean owned, long exceptionsWritten, long keyLeasesReleased) {
    }

    /** The committed cursor and the highest id it may move to. */
    public record CommitTarget(long committed, long target) {
    }

    private final Sql sql;

    public ClaimQueries(Sql sql) {
        this.sql = sql;
    }

    /** The visible head and cursors, in its own statement; empty when the group's cursor row is gone. */
    public Optional<Observation> observe(Connection connection, GroupIds group) throws SQLException {
        try (BoundStatement observe = prepare(connection, "observe", group)) {
            return observe.bind("group_id", group.groupId())
                    .queryOne(row -> new Observation(row.getLong("head"), row.getLong("claimed"),
                            row.getLong("settled_head"), row.getLong("pending_head"), row.getBoolean("lease_expired"),
                            row.getString("observed_xid")));
        }
    }

    /** Locks the cursor row for the claim transaction; empty when it is gone. */
    public Optional<LockedCursor> lockCursor(Connection tx, GroupIds group, String observedXid) throws SQLException {
        try (BoundStatement lock = prepare(tx, "lock_cursor", group)) {
            return lock.bind("group_id", group.groupId()).bind("observed_xid", observedXid)
                    .queryOne(row -> new LockedCursor(row.getLong("claimed"), row.getLong("settled_head"),
                            row.getLong("pending_head"), row.getBoolean("observed_fence_passed"),
                            row.getBoolean("pending_fence_passed")));
        }
    }

    /** The open producers, oldest first (at most {@code limit}), that hold back an observation of {@code xid}. */
    public List<GroupFence.Holder> fenceHolders(Connection connection, GroupIds group, String observedXid,
                                                int limit) throws SQLException {
        try (BoundStatement holders = prepare(connection, "fence_holders", group)) {
            return holders.bind("observed_xid", observedXid).bind("limit", limit).queryList(FenceHolderRow::read);
        }
    }

    /** Moves the claimed cursor; the new range's lease token, or empty when the move claimed nothing. */
    public Optional<String> advanceAndLease(Connection tx, GroupIds group, Advance advance) throws SQLException {
        try (BoundStatement lease = prepare(tx, "advance_and_lease", group)) {
            return lease.bind("group_id", group.groupId())
                    .bind("low", advance.fromClaimed())
                    .bind("claimed", advance.toClaimed())
                    .bind("settled_head", advance.settledHead())
                    .bind("pending_fence_passed", advance.pendingFencePassed())
                    .bind("observed_head", advance.observedHead())
                    .bind("observed_xid", advance.observedXid())
                    .bind("lease_micros", Micros.of(advance.lease()))
                    .queryOne(row -> row.getString("token"));
        }
    }

    /** The rows of (low, high] deliverable to the group at payload version {@code schemaVersion}, in id order. */
    public List<LogRow> readRange(Connection connection, GroupIds group, int schemaVersion, long low, long high)
            throws SQLException {
        try (BoundStatement read = prepare(connection, "read_range", group)) {
            return read.bind("group_id", group.groupId()).bind("schema_version", schemaVersion)
                    .bind("low", low).bind("high", high)
                    .queryList(ClaimQueries::logRow);
        }
    }

    /** Takes over the lowest expired range for {@code lease}; empty when there is none or a peer holds it. */
    public Optional<Reclaimed> reclaimExpired(Connection connection, GroupIds group, Duration lease)
            throws SQLException {
        try (BoundStatement reclaim = prepare(connection, "reclaim_expired_range", group)) {
            return reclaim.bind("group_id", group.groupId()).bind("lease_micros", Micros.of(lease))
                    .queryOne(row -> new Reclaimed(row.getString("token"), row.getLong("low"), row.getLong("high"),
                            row.getInt("reclaims")));
        }
    }

    /**
     * Releases the range leased under {@code token} and turns each of its deliverable messages into a ready
     * exception row, audited as a failure when the stream's mode logs failures.
     *
     * @return how many messages were quarantined
     */
    public long quarantine(Connection connection, GroupIds group, String token, int schemaVersion,
                           DeliveryLogMode logMode) throws SQLException {
        try (BoundStatement quarantine = prepare(connection, "quarantine_range", group)) {
            return quarantine.bind("group_id", group.groupId()).bind("token", token)
                    .bind("schema_version", schemaVersion)
                    .bind("status", ExceptionStatus.READY.column())
                    .bind("log_status", DeliveryLogStatus.FAILURE.column())
                    .bind("log_deliveries", DeliveryLogStatus.FAILURE.loggedUnder(logMode))
                    .querySingle(row -> row.getLong("quarantined"));
        }
    }

    /** Gives a never-started range back as expired, without counting a reclaim, with the key leases it took. */
    public void surrender(Connection connection, GroupIds group, String token) throws SQLException {
        try (BoundStatement surrender = prepare(connection, "surrender_range", group)) {
            surrender.bind("group_id", group.groupId()).bind("token", token).update();
        }
    }

    /** What a range lease renewal did: whether the lease was still held, and how many of its key leases it kept. */
    public record Renewal(boolean renewed, long keyLeasesKept) {
    }

    /**
     * Renews the unexpired range lease under {@code token} for {@code lease} and keeps its key leases at least
     * {@code keyMargin} longer; not renewed when the lease was reclaimed or has expired.
     */
    public Renewal renewRange(Connection connection, GroupIds group, String token, Duration lease, Duration keyMargin)
            throws SQLException {
        try (BoundStatement renew = prepare(connection, "renew_range_lease", group)) {
            return renew.bind("group_id", group.groupId()).bind("token", token)
                    .bind("lease_micros", Micros.of(lease)).bind("key_margin_micros", Micros.of(keyMargin))
                    .queryOne(row -> new Renewal(row.getLong("renewed") > 0, row.getLong("keys_kept")))
                    .orElseThrow();
        }
    }

    /** Records a range's outcomes in one token-guarded statement and gives back the key leases under its token. */
    public Recorded recordRange(Connection connection, GroupIds group, RangeRecord range) throws SQLException {
        try (BoundStatement record = prepare(connection, "record_range", group)) {
            return recorded(record, group, range);
        }
    }

    /**
     * Records the outcomes resolved since the range's last advance and moves its low to the record's new low, in
     * the caller's transaction, keeping the lease and its key leases; not owned when the lease was lost.
     */
    public Recorded advanceRange(Connection connection, GroupIds group, RangeRecord range) throws SQLException {
        try (BoundStatement advance = prepare(connection, "advance_range", group)) {
            return recorded(advance, group, range);
        }
    }

    private static Recorded recorded(BoundStatement statement, GroupIds group, RangeRecord range) throws SQLException {
        List<OutcomeRow> outcomes = range.outcomes();
        return statement.bind("group_id", group.groupId()).bind("token", range.token())
                .bind("new_low", range.newLow())
                .bindArray("message_ids", "int8", outcomes.stream().map(OutcomeRow::messageId).toArray())
                .bindArray("message_keys", "text", outcomes.stream().map(OutcomeRow::messageKey).toArray())
                .bindArray("concurrencies", "text",
                        outcomes.stream().map(outcome -> outcome.concurrency().wireName()).toArray())
                .bindArray("statuses", "text", outcomes.stream()
                        .map(outcome -> outcome.status() == null ? null : outcome.status().column()).toArray())
                .bindArray("delays", "int4", outcomes.stream().map(OutcomeRow::delays).toArray())
                .bindArray("run_after_micros", "int8",
                        outcomes.stream().map(outcome -> Micros.of(outcome.runAfter())).toArray())
                .bindArray("last_errors", "text", outcomes.stream().map(OutcomeRow::lastError).toArray())
                .bindArray("log_statuses", "text", outcomes.stream()
                        .map(outcome -> outcome.logStatus().loggedUnder(range.logMode())
                                ? outcome.logStatus().column() : null).toArray())
                .querySingle(row -> new Recorded(row.getLong("owned") > 0, row.getLong("exceptions"),
                        row.getLong("keys_released")));
    }

    /** The committed cursor's target, read in one snapshot; empty when the group's cursor row is gone. */
    public Optional<CommitTarget> commitTarget(Connection connection, GroupIds group) throws SQLException {
        try (BoundStatement read = prepare(connection, "advance_committed_target", group)) {
            return read.bind("group_id", group.groupId())
                    .queryOne(row -> new CommitTarget(row.getLong("committed"), row.getLong("target")));
        }
    }

    /** Raises the committed cursor to {@code committed}; never lowers it. */
    public void advanceCommitted(Connection connection, GroupIds group, long committed) throws SQLException {
        try (BoundStatement update = prepare(connection, "advance_committed", group)) {
            update.bind("group_id", group.groupId()).bind("committed", committed).update();
        }
    }

    private BoundStatement prepare(Connection connection, String name, GroupIds group) throws SQLException {
        return BoundStatement.prepare(connection, sql.streamStatement(name, group.streamId()));
    }

    private static LogRow logRow(ResultSet row) throws SQLException {
        long rank = row.getLong("compaction_rank");
        Long compactionRank = row.wasNull() ? null : rank;
        return new LogRow(row.getLong("id"), row.getString("routing_key"), row.getString("message_key"),
                compactionRank, row.getString("payload"), row.getString("options"), row.getString("headers"),
                row.getTimestamp("created_at").toInstant());
    }
}
