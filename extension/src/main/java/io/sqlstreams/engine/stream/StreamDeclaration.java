package io.sqlstreams.engine.stream;

import java.sql.Connection;
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
import io.sqlstreams.engine.query.StreamQueries.StreamSettings;
import io.sqlstreams.engine.query.StreamQueries;
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
    private final SchemaMigrator migrator;
    private final StreamQueries streams;
    private final StreamWorkers workers;
    private final Diagnostics diagnostics;
    private final String declarer;

    public StreamDeclaration(Database database, Sql sql, SchemaMigrator migrator, Diagnostics diagnostics,
                             String declarer) {
        this.database = database;
        this.migrator = migrator;
        this.streams = new StreamQueries(sql);
        this.workers = new StreamWorkers(sql, diagnostics, declarer);
        this.diagnostics = diagnostics;
        this.declarer = declarer;
    }

    public Stream register(String name, StreamConfig config) {
        StreamConfig declared = config == null ? StreamConfig.defaults() : config;
        declared.validate();
        StreamSettings stored = settings(declared);
        long systemId = migrator.ensureSystem();
        return database.inTransaction("registering stream \"" + name + "\"", connection -> {
            Optional<Long> created = streams.insert(connection, systemId, name, stored);
            if (created.isPresent()) {
                migrator.createStreamFamily(connection, created.get(), stored.partitionSize());
                streams.logSnapshot(connection, created.get(), declarer);
                workers.declare(connection, created.get(), name, declared);
                return streams.require(connection, name);
            }
            Stream existing = streams.lock(connection, name).orElseThrow(() -> new SqlStreamsException(Code.SQL0021,
                    "stream \"" + name + "\" vanished while it was being declared; register it again"));
            migrator.checkStream(connection, existing.id(), name);
            replaceIfDifferent(connection, existing, stored);
            workers.declare(connection, existing.id(), name, declared);
            return streams.require(connection, name);
        });
    }

    private void replaceIfDifferent(Connection connection, Stream existing, StreamSettings wanted)
            throws SQLException {
        if (existing.partitionSize() != wanted.partitionSize()) {
            throw new SqlStreamsException(Code.SQL0004, "stream \"" + existing.name() + "\" was created with partition"
                    + " size " + existing.partitionSize() + "; the declaration asks for " + wanted.partitionSize()
                    + " (the partition size is fixed at creation)");
        }
        List<String> changes = differences(settings(existing), wanted);
        if (changes.isEmpty()) {
            return;
        }
        streams.update(connection, existing.id(), wanted);
        streams.logSnapshot(connection, existing.id(), declarer);
        diagnostics.event(Code.SQL0061, "stream \"" + existing.name() + "\" config replaced by a differing declaration: "
                + String.join("; ", changes));
    }

    private static List<String> differences(StreamSettings old, StreamSettings wanted) {
        List<String> changes = new ArrayList<>();
        durationChange(changes, "retention_ttl", old.retentionTtl(), wanted.retentionTtl());
        if (old.allowDropPastCommitted() != wanted.allowDropPastCommitted()) {
            changes.add("allow_drop_past_committed " + old.allowDropPastCommitted() + " -> "
                    + wanted.allowDropPastCommitted());
        }
        durationChange(changes, "idempotency_key_ttl", old.idempotencyKeyTtl(), wanted.idempotencyKeyTtl());
        durationChange(changes, "empty_compaction_head_ttl", old.emptyCompactionHeadTtl(),
                wanted.emptyCompactionHeadTtl());
        if (old.deliveryLogMode() != wanted.deliveryLogMode()) {
            changes.add("delivery_log_mode " + old.deliveryLogMode().wireName() + " -> "
                    + wanted.deliveryLogMode().wireName());
        }
        durationChange(changes, "fence_warn_after", old.fenceWarnAfter(), wanted.fenceWarnAfter());
        return changes;
    }

    private static void durationChange(List<String> changes, String field, Duration old, Duration wanted) {
        if (!old.equals(wanted)) {
            changes.add(field + " " + DurationText.format(old) + " -> " + DurationText.format(wanted));
        }
    }

    /** A declaration as the stream row stores it: the resolved values. */
    private static StreamSettings settings(StreamConfig config) {
        return new StreamSettings(config.resolvedPartitionSize(), config.resolvedRetentionTtl(),
                config.allowDropPastCommitted(), config.resolvedIdempotencyKeyTtl(),
                config.resolvedEmptyCompactionHeadTtl(), config.resolvedDeliveryLogMode(),
                config.resolvedFenceWarnAfter());
    }

    private static StreamSettings settings(Stream stream) {
        return new StreamSettings(stream.partitionSize(), stream.retentionTtl(), stream.allowDropPastCommitted(),
                stream.idempotencyKeyTtl(), stream.emptyCompactionHeadTtl(), stream.deliveryLogMode(),
                stream.fenceWarnAfter());
    }
}
