package io.sqlstreams.engine.stream;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.codec.DurationText;
import io.sqlstreams.engine.schema.SchemaMigrator;
import io.sqlstreams.engine.sql.Database;
import io.sqlstreams.engine.sql.Sql;

/**
 * A stream's {@code register}: creates the installation when missing, then in one transaction either creates
 * the stream row, its table family, partition 0 and its workers, or replaces a differing declaration
 * (SQL0061 with the difference; the partition size can never change, SQL0004). Every create or replace
 * appends a snapshot to {@code stream_config_log}.
 */
public final class StreamDeclaration {
    private final Database database;
    private final Sql sql;
    private final SchemaMigrator migrator;
    private final StreamRows rows;
    private final StreamWorkers workers;
    private final Diagnostics diagnostics;
    private final String declarer;

    public StreamDeclaration(Database database, Sql sql, SchemaMigrator migrator, Diagnostics diagnostics,
                             String declarer) {
        this.database = database;
        this.sql = sql;
        this.migrator = migrator;
        this.rows = new StreamRows(sql);
        this.workers = new StreamWorkers(sql, diagnostics, declarer);
        this.diagnostics = diagnostics;
        this.declarer = declarer;
    }

    public Stream register(String name, StreamConfig config) {
        StreamConfig declared = config == null ? StreamConfig.defaults() : config;
        declared.validate();
        StoredConfig stored = StoredConfig.of(declared);
        long systemId = migrator.ensureSystem();
        return database.inTransaction("registering stream \"" + name + "\"", connection -> {
            Optional<Long> created = insert(connection, systemId, name, stored);
            if (created.isPresent()) {
                migrator.createStreamFamily(connection, created.get(), stored.partitionSize());
                logSnapshot(connection, created.get());
                workers.declare(connection, created.get(), name, declared);
                return rows.require(connection, name);
            }
            Stream existing = rows.lock(connection, name).orElseThrow(() -> new SqlStreamsException(Code.SQL0021,
                    "stream \"" + name + "\" vanished while it was being declared; register it again"));
            migrator.checkStream(connection, existing.id(), name);
            replaceIfDifferent(connection, existing, stored);
            workers.declare(connection, existing.id(), name, declared);
            return rows.require(connection, name);
        });
    }

    private Optional<Long> insert(Connection connection, long systemId, String name, StoredConfig stored)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(sql.get("insert_stream"))) {
            insert.setLong(1, systemId);
            insert.setString(2, name);
            insert.setLong(3, stored.partitionSize());
            insert.setLong(4, stored.retentionTtlNanos());
            insert.setBoolean(5, stored.allowDropPastCommitted());
            insert.setLong(6, stored.idempotencyKeyTtlNanos());
            insert.setLong(7, stored.emptyCompactionHeadTtlNanos());
            insert.setString(8, stored.deliveryLogMode());
            try (ResultSet row = insert.executeQuery()) {
                return row.next() ? Optional.of(row.getLong(1)) : Optional.empty();
            }
        }
    }

    private void replaceIfDifferent(Connection connection, Stream existing, StoredConfig wanted) throws SQLException {
        if (existing.partitionSize() != wanted.partitionSize()) {
            throw new SqlStreamsException(Code.SQL0004, "stream \"" + existing.name() + "\" was created with partition"
                    + " size " + existing.partitionSize() + "; the declaration asks for " + wanted.partitionSize()
                    + " (the partition size is fixed at creation)");
        }
        List<String> changes = differences(StoredConfig.of(existing), wanted);
        if (changes.isEmpty()) {
            return;
        }
        try (PreparedStatement update = connection.prepareStatement(sql.get("update_stream_config"))) {
            update.setLong(1, wanted.retentionTtlNanos());
            update.setBoolean(2, wanted.allowDropPastCommitted());
            update.setLong(3, wanted.idempotencyKeyTtlNanos());
            update.setLong(4, wanted.emptyCompactionHeadTtlNanos());
            update.setString(5, wanted.deliveryLogMode());
            update.setLong(6, existing.id());
            update.executeUpdate();
        }
        logSnapshot(connection, existing.id());
        diagnostics.event(Code.SQL0061, "stream \"" + existing.name() + "\" config replaced by a differing declaration: "
                + String.join("; ", changes));
    }

    private void logSnapshot(Connection connection, long streamId) throws SQLException {
        try (PreparedStatement log = connection.prepareStatement(sql.get("log_stream_config"))) {
            log.setString(1, declarer);
            log.setLong(2, streamId);
            log.executeUpdate();
        }
    }

    private static List<String> differences(StoredConfig old, StoredConfig wanted) {
        List<String> changes = new ArrayList<>();
        durationChange(changes, "retention_ttl", old.retentionTtlNanos(), wanted.retentionTtlNanos());
        if (old.allowDropPastCommitted() != wanted.allowDropPastCommitted()) {
            changes.add("allow_drop_past_committed " + old.allowDropPastCommitted() + " -> "
                    + wanted.allowDropPastCommitted());
        }
        durationChange(changes, "idempotency_key_ttl", old.idempotencyKeyTtlNanos(), wanted.idempotencyKeyTtlNanos());
        durationChange(changes, "empty_compaction_head_ttl", old.emptyCompactionHeadTtlNanos(),
                wanted.emptyCompactionHeadTtlNanos());
        if (!old.deliveryLogMode().equals(wanted.deliveryLogMode())) {
            changes.add("delivery_log_mode " + old.deliveryLogMode() + " -> " + wanted.deliveryLogMode());
        }
        return changes;
    }

    private static void durationChange(List<String> changes, String field, long oldNanos, long newNanos) {
        if (oldNanos != newNanos) {
            changes.add(field + " " + DurationText.format(Duration.ofNanos(oldNanos)) + " -> "
                    + DurationText.format(Duration.ofNanos(newNanos)));
        }
    }

    /** A declaration as the stream row stores it: resolved values, durations in nanoseconds. */
    private record StoredConfig(long partitionSize, long retentionTtlNanos, boolean allowDropPastCommitted,
                                long idempotencyKeyTtlNanos, long emptyCompactionHeadTtlNanos, String deliveryLogMode) {

        static StoredConfig of(StreamConfig config) {
            return new StoredConfig(config.resolvedPartitionSize(), config.resolvedRetentionTtl().toNanos(),
                    config.allowDropPastCommitted(), config.resolvedIdempotencyKeyTtl().toNanos(),
                    config.resolvedEmptyCompactionHeadTtl().toNanos(), config.resolvedDeliveryLogMode().wireName());
        }

        static StoredConfig of(Stream stream) {
            return new StoredConfig(stream.partitionSize(), stream.retentionTtl().toNanos(),
                    stream.allowDropPastCommitted(), stream.idempotencyKeyTtl().toNanos(),
                    stream.emptyCompactionHeadTtl().toNanos(), stream.deliveryLogMode().wireName());
        }
    }
}
