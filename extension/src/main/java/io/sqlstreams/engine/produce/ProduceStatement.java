package io.sqlstreams.engine.produce;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;
import java.util.UUID;

import io.sqlstreams.ProduceResult;
import io.sqlstreams.engine.sql.Sql;

/**
 * Writes a list of prepared messages with the one {@code produce} statement: idempotency claims first, then
 * the messages whose claim was new, then the compaction heads. Messages are written in message-key order (so
 * concurrent writers lock head rows in one order and cannot deadlock); results come back in list order.
 */
final class ProduceStatement {
    private static final Comparator<Candidate> KEY_ORDER = Comparator
            .comparing((Candidate candidate) -> candidate.message().messageKey(),
                    Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparingInt(Candidate::index);

    private final String statement;

    ProduceStatement(Sql sql, long streamId) {
        this.statement = sql.forStream("produce", streamId);
    }

    /**
     * Runs the statement on {@code connection} inside the caller's transaction.
     *
     * @param timeout bound on the statement, or null for none
     */
    List<ProduceResult> execute(Connection connection, List<PreparedMessage> messages, Duration timeout)
            throws SQLException {
        ProduceResult[] results = new ProduceResult[messages.size()];
        List<Candidate> candidates = firstOfEachKey(messages, results);
        candidates.sort(KEY_ORDER);
        Set<String> claimed;
        long[] ids;
        try (PreparedStatement produce = connection.prepareStatement(statement)) {
            if (timeout != null) {
                produce.setQueryTimeout((int) Math.max(1, (timeout.toMillis() + 999) / 1000));
            }
            bind(connection, produce, candidates);
            try (ResultSet row = produce.executeQuery()) {
                row.next();
                claimed = new HashSet<>(Arrays.asList((String[]) row.getArray(1).getArray()));
                ids = Arrays.stream((Long[]) row.getArray(2).getArray()).mapToLong(Long::longValue).toArray();
            }
        }
        if (claimed.size() != ids.length) {
            throw new IllegalStateException("produce claimed " + claimed.size() + " keys but inserted " + ids.length);
        }
        int next = 0;
        for (Candidate candidate : candidates) {
            boolean inserted = claimed.contains(candidate.message().idempotencyKey().toString());
            results[candidate.index()] = inserted ? new ProduceResult(ids[next++], false) : new ProduceResult(0, true);
        }
        return List.of(results);
    }

    /** The first message of each idempotency key; later ones in the same list are duplicates of it. */
    private static List<Candidate> firstOfEachKey(List<PreparedMessage> messages, ProduceResult[] results) {
        Set<UUID> seen = new HashSet<>();
        List<Candidate> candidates = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            PreparedMessage message = messages.get(i);
            if (seen.add(message.idempotencyKey())) {
                candidates.add(new Candidate(i, message));
            } else {
                results[i] = new ProduceResult(0, true);
            }
        }
        return candidates;
    }

    private static void bind(Connection connection, PreparedStatement produce, List<Candidate> candidates)
            throws SQLException {
        int n = candidates.size();
        UUID[] keys = new UUID[n];
        Integer[] versions = new Integer[n];
        String[] routingKeys = new String[n];
        String[] messageKeys = new String[n];
        Long[] ranks = new Long[n];
        StringJoiner payloads = new StringJoiner(",", "[", "]");
        StringJoiner options = new StringJoiner(",", "[", "]");
        for (int i = 0; i < n; i++) {
            PreparedMessage message = candidates.get(i).message();
            keys[i] = message.idempotencyKey();
            versions[i] = message.schemaVersion();
            routingKeys[i] = message.routingKey();
            messageKeys[i] = message.messageKey();
            ranks[i] = message.compactionRank();
            payloads.add(message.payloadJson());
            options.add(message.optionsJson() == null ? "null" : message.optionsJson());
        }
        produce.setArray(1, connection.createArrayOf("uuid", keys));
        produce.setArray(2, connection.createArrayOf("int4", versions));
        produce.setArray(3, connection.createArrayOf("text", routingKeys));
        produce.setArray(4, connection.createArrayOf("text", messageKeys));
        produce.setArray(5, connection.createArrayOf("int8", ranks));
        produce.setString(6, payloads.toString());
        produce.setString(7, options.toString());
    }

    private record Candidate(int index, PreparedMessage message) {
    }
}
