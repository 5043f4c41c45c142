package io.sqlstreams.engine.produce;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import io.sqlstreams.ProduceResult;
import io.sqlstreams.engine.query.ProduceQueries;
import io.sqlstreams.engine.sql.Sql;

/**
 * Writes a list of prepared messages with the one produce statement ({@link ProduceQueries}). A later message
 * with the caller's idempotency key of an earlier one in the list is its duplicate; the messages without a key share
 * the batch's. Messages are written in message-key order (so concurrent writers lock head rows in one order and
 * cannot deadlock); results come back in list order.
 */
final class ProduceStatement {
    private static final Comparator<Candidate> KEY_ORDER = Comparator
            .comparing((Candidate candidate) -> candidate.message().messageKey(),
                    Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparingInt(Candidate::index);

    private final ProduceQueries queries;

    ProduceStatement(Sql sql, long streamId) {
        this.queries = new ProduceQueries(sql, streamId);
    }

    /**
     * Runs the statement on {@code connection} inside the caller's transaction.
     *
     * @param batchKey the key claimed for the messages without one; a retry of the same messages passes it again
     * @param timeout  bound on the statement, or null for none
     */
    List<ProduceResult> execute(Connection connection, String streamName, List<PreparedMessage> messages,
                                UUID batchKey, Duration timeout) throws SQLException {
        ProduceResult[] results = new ProduceResult[messages.size()];
        List<Candidate> candidates = firstOfEachKey(messages, results);
        candidates.sort(KEY_ORDER);
        List<PreparedMessage> ordered = new ArrayList<>(candidates.size());
        for (Candidate candidate : candidates) {
            ordered.add(candidate.message());
        }
        List<ProduceResult> written = queries.produce(connection, streamName, ordered, batchKey, timeout);
        for (int i = 0; i < candidates.size(); i++) {
            results[candidates.get(i).index()] = written.get(i);
        }
        return List.of(results);
    }

    /** {@link ProduceQueries#claimBatchKey}. */
    boolean claimBatchKey(Connection connection, UUID batchKey) throws SQLException {
        return queries.claimBatchKey(connection, batchKey);
    }

    /** Every message without a key, and the first of each key; later ones in the same list are duplicates of it. */
    private static List<Candidate> firstOfEachKey(List<PreparedMessage> messages, ProduceResult[] results) {
        Set<UUID> seen = new HashSet<>();
        List<Candidate> candidates = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            PreparedMessage message = messages.get(i);
            if (message.idempotencyKey() == null || seen.add(message.idempotencyKey())) {
                candidates.add(new Candidate(i, message));
            } else {
                results[i] = new ProduceResult(0, true);
            }
        }
        return candidates;
    }

    private record Candidate(int index, PreparedMessage message) {
    }
}
