package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;

/**
 * The statements of a group's message key leases (key_lease.sql): taking several keys under one token, taking
 * and re-checking a compaction head's key, and releasing one key.
 */
public final class KeyLeaseQueries {
    /**
     * One key asked for: the first id of it in the caller's work, and whether unresolved earlier exception rows
     * ({@code afterExceptions}) or messages in other open ranges ({@code afterRanges}) hold it back.
     */
    public record WantedKey(String messageKey, long firstId, boolean afterExceptions, boolean afterRanges) {
    }

    /**
     * Several keys asked for under {@code token} for {@code lease}, and the {@code finished} keys whose leases
     * under that token the same statement gives back.
     */
    public record KeysRequest(String token, List<WantedKey> wanted, List<String> finished, Duration lease) {
        public KeysRequest {
            wanted = List.copyOf(wanted);
            finished = List.copyOf(finished);
        }
    }

    /** One asked-for key's answer: {@code taken}, or held back by an earlier exception row or otherwise busy. */
    public record KeyAnswer(String messageKey, boolean afterException, boolean taken) {
    }

    /** Every asked-for key's answer, and how many finished keys' leases were still there to give back. */
    public record KeysGrant(List<KeyAnswer> answers, long released) {
    }

    /** The lease of a compacted message's key under {@code token}, valid only while the message is the head. */
    public record HeadLease(String messageKey, long messageId, String token) {
    }

    /** Whether the message was still its key's head, and whether its key's lease was taken. */
    public record HeadAnswer(boolean current, boolean taken) {
    }

    private final Sql sql;

    public KeyLeaseQueries(Sql sql) {
        this.sql = sql;
    }

    public KeysGrant takeKeys(Connection connection, GroupIds group, KeysRequest request) throws SQLException {
        List<WantedKey> wanted = request.wanted();
        try (BoundStatement take = prepare(connection, "take_key_leases", group)) {
            take.bind("group_id", group.groupId()).bind("token", request.token())
                    .bind("lease_micros", Micros.of(request.lease()))
                    .bindArray("finished_keys", "text", request.finished().toArray())
                    .bindArray("message_keys", "text", wanted.stream().map(WantedKey::messageKey).toArray())
                    .bindArray("first_ids", "int8", wanted.stream().map(WantedKey::firstId).toArray())
                    .bindArray("after_exceptions", "bool", wanted.stream().map(WantedKey::afterExceptions).toArray())
                    .bindArray("after_ranges", "bool", wanted.stream().map(WantedKey::afterRanges).toArray());
            List<AnswerRow> rows = take.queryList(row -> new AnswerRow(new KeyAnswer(row.getString("message_key"),
                    row.getBoolean("after_exception"), row.getBoolean("taken")), row.getLong("released")));
            return new KeysGrant(rows.stream().map(AnswerRow::answer).toList(),
                    rows.isEmpty() ? 0 : rows.get(0).released());
        }
    }

    /** Takes the key's lease for {@code duration} if the message is still its key's head. */
    public HeadAnswer takeOfHead(Connection connection, GroupIds group, HeadLease lease, Duration duration)
            throws SQLException {
        try (BoundStatement take = prepare(connection, "take_key_lease_of_head", group)) {
            return take.bind("group_id", group.groupId()).bind("message_key", lease.messageKey())
                    .bind("message_id", lease.messageId()).bind("token", lease.token())
                    .bind("lease_micros", Micros.of(duration))
                    .querySingle(row -> new HeadAnswer(row.getBoolean("current"), row.getBoolean("taken")));
        }
    }

    /** Gives the lease back when, in a fresh snapshot, the message is no longer its key's head; whether it did. */
    public boolean dropIfSuperseded(Connection connection, GroupIds group, HeadLease lease) throws SQLException {
        try (BoundStatement drop = prepare(connection, "drop_key_lease_if_superseded", group)) {
            return drop.bind("group_id", group.groupId()).bind("message_key", lease.messageKey())
                    .bind("message_id", lease.messageId()).bind("token", lease.token())
                    .queryOne(row -> true).isPresent();
        }
    }

    /** Releases one key's lease under {@code token}; false when it was gone (expired and taken over). */
    public boolean release(Connection connection, GroupIds group, String messageKey, String token)
            throws SQLException {
        try (BoundStatement release = prepare(connection, "release_key_lease", group)) {
            return release.bind("group_id", group.groupId()).bind("message_key", messageKey).bind("token", token)
                    .queryOne(row -> true).isPresent();
        }
    }

    /** Each row carries the same count of released leases beside its key's answer. */
    private record AnswerRow(KeyAnswer answer, long released) {
    }

    private BoundStatement prepare(Connection connection, String name, GroupIds group) throws SQLException {
        return BoundStatement.prepare(connection, sql.streamStatement(name, group.streamId()));
    }
}
