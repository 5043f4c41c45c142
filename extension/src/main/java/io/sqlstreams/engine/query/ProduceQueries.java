package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;
import java.util.UUID;

import io.sqlstreams.Code;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.engine.sql.Statement;
import io.sqlstreams.engine.sql.TransientFailures;

/**
 * The produce statement of one stream: in one round trip it claims the batch's key (for the rows without a key of
 * their own) and every row's own idempotency key, inserts the messages whose claim was new into the log, and moves
 * the compaction heads of their keys ({@code produce.sql} says in which order and why). Rendered once per stream;
 * prepared once per batch.
 */
public final class ProduceQueries {
    private static final String NO_PARTITION = "23514";
    private static final String UNDEFINED_TABLE = "42P01";

    private final Statement produce;
    private final Statement claimBatchKey;

    public ProduceQueries(Sql sql, long streamId) {
        this.produce = sql.streamStatement("produce", streamId);
        this.claimBatchKey = sql.streamStatement("claim_batch_key", streamId);
    }

    /**
     * Claims the batch key of a batch that failed for good: true when the claim is new, so none of the batch's
     * attempts committed and none can any more; false when one did (its acknowledgement was lost).
     */
    public boolean claimBatchKey(Connection connection, UUID batchKey) throws SQLException {
        try (BoundStatement statement = BoundStatement.prepare(connection, claimBatchKey)) {
            return statement.bind("batch_key", batchKey).update() == 1;
        }
    }

    /** One message as the produce statement writes it. */
    public interface MessageRow {
        /** The caller's idempotency key, or null for none: the row is then covered by the batch's key. */
        UUID idempotencyKey();

        int schemaVersion();

        String routingKey();

        String messageKey();

        /** The compaction rank, or null when the message is not compacted. */
        Long compactionRank();

        String payloadJson();

        /** The options document, or null for none. */
        String optionsJson();

        /** The headers document, or null for none. */
        String headersJson();
    }

    /**
     * No partition of the stream's log covers an id the statement drew: nothing was written, and the statement's
     * failure aborted the transaction it ran in.
     */
    public static final class MissingPartitionException extends RuntimeException {
        private MissingPartitionException(String streamName, SQLException failure) {
            super("no partition of stream \"" + streamName + "\" covers the next ids: "
                    + TransientFailures.describe(failure), failure);
        }
    }

    /**
     * Writes {@code rows}, whose own idempotency keys are distinct, in their order. The rows without a key of
     * their own share one claim of {@code batchKey}, claimed only when there is such a row: a retry of the same rows
     * with the same batch key after a lost commit acknowledgement finds it claimed and writes none of them again. The
     * result has one entry per row, in row order: the new message's id, or a duplicate when the row's key (or,
     * without one, the batch key) was claimed before. SQL0005 when the stream's table family is gone;
     * {@link MissingPartitionException} when the log needs a partition first.
     *
     * @param streamName how a failure names the stream
     * @param batchKey   the key the rows without one share; distinct from every caller's key
     * @param timeout    bound on the statement, or null for none
     */
    public List<ProduceResult> produce(Connection connection, String streamName, List<? extends MessageRow> rows,
                                       UUID batchKey, Duration timeout) throws SQLException {
        Written written;
        try (BoundStatement statement = BoundStatement.prepare(connection, produce)) {
            if (timeout != null) {
                statement.timeout(timeout);
            }
            bind(statement, rows, batchKey);
            written = statement.querySingle(row -> new Written(
                    new HashSet<>(Arrays.asList((String[]) row.getArray("claimed_keys").getArray())),
                    (Long[]) row.getArray("inserted_ids").getArray()));
        } catch (SQLException failure) {
            String state = TransientFailures.state(failure);
            if (NO_PARTITION.equals(state)) {
                throw new MissingPartitionException(streamName, failure);
            }
            if (UNDEFINED_TABLE.equals(state)) {
                throw new SqlStreamsException(Code.SQL0005, "stream \"" + streamName + "\" no longer exists", failure);
            }
            throw failure;
        }
        return written.resultsFor(rows, batchKey);
    }

    private static void bind(BoundStatement statement, List<? extends MessageRow> rows, UUID batchKey)
            throws SQLException {
        int n = rows.size();
        boolean keyless = false;
        UUID[] keys = new UUID[n];
        Integer[] versions = new Integer[n];
        String[] routingKeys = new String[n];
        String[] messageKeys = new String[n];
        Long[] ranks = new Long[n];
        StringJoiner payloads = new StringJoiner(",", "[", "]");
        StringJoiner options = new StringJoiner(",", "[", "]");
        StringJoiner headers = new StringJoiner(",", "[", "]");
        for (int i = 0; i < n; i++) {
            MessageRow row = rows.get(i);
            keys[i] = row.idempotencyKey();
            keyless |= keys[i] == null;
            versions[i] = row.schemaVersion();
            routingKeys[i] = row.routingKey();
            messageKeys[i] = row.messageKey();
            ranks[i] = row.compactionRank();
            payloads.add(row.payloadJson());
            options.add(row.optionsJson() == null ? "null" : row.optionsJson());
            headers.add(row.headersJson() == null ? "null" : row.headersJson());
        }
        statement.bind("batch_key", keyless ? batchKey : null)
                .bindArray("idempotency_keys", "uuid", keys)
                .bindArray("schema_versions", "int4", versions)
                .bindArray("routing_keys", "text", routingKeys)
                .bindArray("message_keys", "text", messageKeys)
                .bindArray("compaction_ranks", "int8", ranks)
                .bind("payloads", payloads.toString())
                .bind("options", options.toString())
                .bind("headers", headers.toString());
    }

    /** The statement's row: the keys it claimed (as text) and the ids it inserted, ascending. */
    private record Written(Set<String> claimedKeys, Long[] insertedIds) {
        /** The inserts went in row order, so the ascending ids belong to the rows whose claim was new, in order. */
        List<ProduceResult> resultsFor(List<? extends MessageRow> rows, UUID batchKey) {
            boolean[] inserted = new boolean[rows.size()];
            int count = 0;
            for (int i = 0; i < rows.size(); i++) {
                UUID key = rows.get(i).idempotencyKey();
                inserted[i] = claimedKeys.contains((key == null ? batchKey : key).toString());
                count += inserted[i] ? 1 : 0;
            }
            if (count != insertedIds.length) {
                throw new IllegalStateException("produce claimed keys for " + count + " messages but inserted "
                        + insertedIds.length);
            }
            List<ProduceResult> results = new ArrayList<>(rows.size());
            int next = 0;
            for (boolean written : inserted) {
                results.add(written ? new ProduceResult(insertedIds[next++], false) : new ProduceResult(0, true));
            }
            return results;
        }
    }
}
