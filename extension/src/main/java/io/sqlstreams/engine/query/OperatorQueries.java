package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import io.sqlstreams.BlockedKey;
import io.sqlstreams.DeadLetter;
import io.sqlstreams.DeadLetterErrors;
import io.sqlstreams.DeadLetterFilter;
import io.sqlstreams.MessageWhereabouts;
import io.sqlstreams.OperatorAction;
import io.sqlstreams.engine.HeadersDocument;
import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;

/**
 * The statements of {@code operator.sql}: a group's dead letters by filter, its blocked ordered keys, its audit
 * trail of operator actions ({@code consumer_group_action_log}), and where messages stand in every group.
 */
public final class OperatorQueries {
    /** One batch of a redrive or a discard: the action it counts into and what it writes. */
    public record Batch(long actionId, boolean redrive, Instant cutoff, int size, String note) {
        String newStatus() {
            return (redrive ? ExceptionStatus.READY : ExceptionStatus.DISCARDED).column();
        }

        String logStatus() {
            return (redrive ? DeliveryLogStatus.REDRIVEN : DeliveryLogStatus.DISCARDED).column();
        }
    }

    private final Sql sql;

    public OperatorQueries(Sql sql) {
        this.sql = sql;
    }

    /** The selected dead letters of the group with an id below {@code beforeId} (any when null), newest first. */
    public List<DeadLetter> page(Connection connection, ExceptionQueries.Queue queue, DeadLetterFilter filter,
                                 Long beforeId, int limit) throws SQLException {
        try (BoundStatement page = filtered(connection, "dead_letter_page", queue, filter)) {
            return page.bind("before_id", beforeId).bind("limit", limit).queryList(row -> new DeadLetter(
                    row.getLong("message_id"), row.getString("message_key"), row.getString("routing_key"),
                    row.getInt("schema_version"), instant(row, "created_at"), row.getInt("attempts") + 1,
                    row.getString("last_error"), instant(row, "dead_since"), row.getString("payload"),
                    HeadersDocument.fromJson(row.getString("headers"))));
        }
    }

    public long count(Connection connection, ExceptionQueries.Queue queue, DeadLetterFilter filter)
            throws SQLException {
        try (BoundStatement count = filtered(connection, "dead_letter_count", queue, filter)) {
            return count.querySingle(row -> row.getLong("dead"));
        }
    }

    public List<DeadLetterErrors> errors(Connection connection, ExceptionQueries.Queue queue,
                                         DeadLetterFilter filter, int limit) throws SQLException {
        try (BoundStatement errors = filtered(connection, "dead_letter_errors", queue, filter)) {
            return errors.bind("limit", limit).queryList(row -> new DeadLetterErrors(row.getString("last_error"),
                    row.getLong("dead"), row.getLong("sample_id"), instant(row, "newest_dead_since")));
        }
    }

    /** Redrives or discards one batch of selected dead letters; returns how many it changed. */
    public long resolve(Connection connection, ExceptionQueries.Queue queue, DeadLetterFilter filter, Batch batch)
            throws SQLException {
        try (BoundStatement resolve = filtered(connection, "resolve_dead_letters", queue, filter)) {
            return resolve.bind("action_id", batch.actionId()).bind("redrive", batch.redrive())
                    .bind("new_status", batch.newStatus())
                    .bind("log_status", batch.logStatus()).bind("cutoff", batch.cutoff())
                    .bind("batch", batch.size()).bind("note", batch.note())
                    .bind("logged", queue.logsFailures())
                    .querySingle(row -> row.getLong("changed"));
        }
    }

    public List<BlockedKey> blockedKeys(Connection connection, ExceptionQueries.Queue queue, int limit)
            throws SQLException {
        try (BoundStatement blocked = BoundStatement.prepare(connection,
                sql.streamStatement("blocked_keys", queue.streamId()))) {
            return blocked.bind("group_id", queue.groupId()).bind("limit", limit).queryList(row -> new BlockedKey(
                    row.getString("message_key"), row.getLong("message_id"), row.getString("status"),
                    row.getInt("attempts") + 1, row.getString("last_error"), instant(row, "can_run_after"),
                    row.getLong("waiting")));
        }
    }

    /** Locks the group's row until the transaction ends, so that its pause state changes one at a time. */
    public void lockGroup(Connection connection, long groupId) throws SQLException {
        try (BoundStatement lock = BoundStatement.prepare(connection, sql.statement("lock_group_actions"))) {
            lock.bind("group_id", groupId).queryList(row -> row.getLong("id"));
        }
    }

    public OperatorAction record(Connection connection, long groupId, OperatorAction.Kind kind, String actor,
                                 String filterJson) throws SQLException {
        try (BoundStatement record = BoundStatement.prepare(connection, sql.statement("record_group_action"))) {
            return record.bind("group_id", groupId).bind("action", kind.wireName()).bind("actor", actor)
                    .bind("filter", filterJson).querySingle(OperatorQueries::action);
        }
    }

    public OperatorAction action(Connection connection, long actionId) throws SQLException {
        try (BoundStatement action = BoundStatement.prepare(connection, sql.statement("group_action"))) {
            return action.bind("action_id", actionId).querySingle(OperatorQueries::action);
        }
    }

    /** The group's newest pause or resume, if it was ever paused. */
    public Optional<OperatorAction> pauseState(Connection connection, long groupId) throws SQLException {
        try (BoundStatement state = BoundStatement.prepare(connection, sql.statement("group_pause_state"))) {
            return state.bind("group_id", groupId).queryOne(OperatorQueries::action);
        }
    }

    public List<OperatorAction> actions(Connection connection, long groupId, int limit) throws SQLException {
        try (BoundStatement actions = BoundStatement.prepare(connection, sql.statement("group_actions"))) {
            return actions.bind("group_id", groupId).bind("limit", limit).queryList(OperatorQueries::action);
        }
    }

    /** Where the wanted messages stand in every group of the stream: one id, or the newest of a key. */
    public List<MessageWhereabouts> locate(Connection connection, long streamId, Long messageId, String messageKey,
                                           int limit) throws SQLException {
        try (BoundStatement locate = BoundStatement.prepare(connection,
                sql.streamStatement("locate_messages", streamId))) {
            locate.bind("message_id", messageId).bind("message_key", messageKey).bind("limit", limit)
                    .bind("stream_id", streamId);
            Map<Long, MessageWhereabouts> found = new LinkedHashMap<>();
            Map<Long, Map<String, MessageWhereabouts.Placement>> placements = new LinkedHashMap<>();
            for (Located row : locate.queryList(OperatorQueries::located)) {
                found.putIfAbsent(row.message().id(), row.message());
                Map<String, MessageWhereabouts.Placement> groups =
                        placements.computeIfAbsent(row.message().id(), id -> new TreeMap<>());
                if (row.group() != null) {
                    groups.put(row.group(), row.placement());
                }
            }
            return found.values().stream().map(message -> new MessageWhereabouts(message.id(), message.messageKey(),
                    message.routingKey(), message.createdAt(), placements.get(message.id()))).toList();
        }
    }

    private record Located(MessageWhereabouts message, String group, MessageWhereabouts.Placement placement) {
    }

    private static Located located(ResultSet row) throws SQLException {
        String state = row.getString("state");
        MessageWhereabouts message = new MessageWhereabouts(row.getLong("id"), row.getString("message_key"),
                row.getString("routing_key"), instant(row, "created_at"), Map.of());
        String group = row.getString("group_name");
        return new Located(message, group, group == null ? null : new MessageWhereabouts.Placement(
                Arrays.stream(MessageWhereabouts.State.values()).filter(known -> known.wireName().equals(state))
                        .findFirst().orElseThrow(() -> new IllegalStateException("unknown placement " + state)),
                row.getInt("runs"), row.getString("last_error"), instant(row, "run_after")));
    }

    private BoundStatement filtered(Connection connection, String name, ExceptionQueries.Queue queue,
                                    DeadLetterFilter filter) throws SQLException {
        BoundStatement statement = BoundStatement.prepare(connection, sql.streamStatement(name, queue.streamId()));
        try {
            return statement.bind("group_id", queue.groupId()).bind("from_id", filter.fromId())
                    .bind("to_id", filter.toId()).bind("message_key", filter.messageKey())
                    .bind("error_text", filter.errorContains()).bind("dead_since", filter.deadSince())
                    .bindArray("message_ids", "int8", filter.messageIds().toArray(Long[]::new));
        } catch (RuntimeException | SQLException failure) {
            statement.close();
            throw failure;
        }
    }

    private static OperatorAction action(ResultSet row) throws SQLException {
        String kind = row.getString("action");
        return new OperatorAction(row.getLong("id"), Arrays.stream(OperatorAction.Kind.values())
                .filter(candidate -> candidate.wireName().equals(kind)).findFirst()
                .orElseThrow(() -> new IllegalStateException("unknown operator action " + kind)),
                row.getString("actor"), instant(row, "acted_at"), row.getLong("affected"), row.getString("filter"));
    }

    private static Instant instant(ResultSet row, String column) throws SQLException {
        Timestamp value = row.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }
}
