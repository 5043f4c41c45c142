package io.sqlstreams.engine.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.sqlstreams.Code;
import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.InvalidNameException;
import io.sqlstreams.JanitorConfig;
import io.sqlstreams.Limits;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.VacuumConfig;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.schema.DdlScope;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;

/**
 * {@code StreamHandle.register} against a real PostgreSQL: what the first registration installs (digest §1.3,
 * §1.4), the declaration semantics (§2.1, §2.2: newest wins, identical writes nothing, differences logged), the
 * immutable partition size, concurrency, and the validation that must reject bad input before any write.
 */
@PostgresTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StreamRegistrationTest extends StreamTestBase {
    private static final String DECLARED_BY = "^.+:\\d+:[0-9a-f]{8}$";
    private static final long NANOS_PER_HOUR = 3_600_000_000_000L;

    @SchemaVersion(1)
    public record Placed(String id) {
    }

    // ------------------------------------------------------------------------------------------------------------
    // First registration: shared tables, the family, migration rows, defaults, workers

    @Test
    @Order(1)
    void firstRegisterInstallsSharedTablesAndTheStreamFamily() throws SQLException {
        assertThat(probe.tables()).as("the class schema starts empty").isEmpty();

        io.sqlstreams.Stream stream = client.stream("reg.first", Placed.class).register();

        // shared control-plane tables
        assertThat(probe.tables()).containsAll(SchemaProbe.SHARED_TABLES);
        for (String table : SchemaProbe.SHARED_TABLES) {
            assertThat(probe.relkind(table)).as(table).contains("r");
        }
        // the family, named by the stream id
        long id = stream.id();
        assertThat(id).isPositive();
        for (String table : SchemaProbe.familyTables(id)) {
            assertThat(probe.tableExists(table)).as(table).isTrue();
        }
        assertThat(probe.tables()).as("exactly the shared tables, the family and partition 0")
                .containsExactlyInAnyOrderElementsOf(SchemaProbe.installedTables(id));
        String log = "message_log_" + id;
        assertThat(probe.relkind(log)).as("the log is partitioned").contains("p");
        assertThat(probe.partitionKey(log)).contains("RANGE (id)");
        assertThat(probe.partitions(log)).containsExactly(log + "_0: FOR VALUES FROM ('0') TO ('1000000')");
        for (String table : SchemaProbe.familyTables(id)) {
            if (!table.equals(log)) {
                assertThat(probe.relkind(table)).as(table + " is a plain table").contains("r");
            }
        }
        // the log's sequence: never cached, owned by the log's id column
        assertThat(probe.sequenceCache(log + "_id_seq")).contains(1L);
        assertThat(probe.text("SELECT pg_get_serial_sequence(?, 'id')", database.schema() + "." + log))
                .isEqualTo(database.schema() + "." + log + "_id_seq");
        assertThat(probe.text("SELECT pg_get_expr(d.adbin, d.adrelid) FROM pg_attrdef d JOIN pg_class c ON"
                + " c.oid = d.adrelid JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON"
                + " a.attrelid = c.oid AND a.attnum = d.adnum WHERE n.nspname = ? AND c.relname = ? AND a.attname = 'id'",
                database.schema(), log)).contains(log + "_id_seq");

        // one system row; one system migration row at the build's system version and one stream row at stream
        // version 2
        assertThat(probe.rowCount("system_config")).isEqualTo(1);
        assertThat(probe.table("SELECT version, min_compatible_version, status FROM " + database.schema()
                + ".migration_log WHERE system_id IS NOT NULL"))
                .containsExactly(List.of(Integer.toString(DdlScope.SYSTEM.buildVersion()), "0", "success"));
        assertThat(probe.table("SELECT version, min_compatible_version, status FROM " + database.schema()
                + ".migration_log WHERE stream_id = ?", id))
                .containsExactly(List.of("2", "0", "success"));
        assertThat(probe.rowCount("migration_log")).isEqualTo(2);

        // the returned row carries the resolved defaults
        assertThat(stream.name()).isEqualTo("reg.first");
        assertThat(stream.partitionSize()).isEqualTo(1_000_000L);
        assertThat(stream.retentionTtl()).isEqualTo(Duration.ZERO);
        assertThat(stream.allowDropPastCommitted()).isFalse();
        assertThat(stream.idempotencyKeyTtl()).isEqualTo(Duration.ofHours(24));
        assertThat(stream.emptyCompactionHeadTtl()).isEqualTo(Duration.ofHours(1));
        assertThat(stream.deliveryLogMode()).isEqualTo(DeliveryLogMode.FAILURES);
        assertThat(stream.fenceWarnAfter()).isEqualTo(Duration.ofSeconds(10));
        assertThat(stream.createdAt()).isNotNull();
        assertThat(stream.updatedAt()).isNotNull();
        assertThat(probe.table("SELECT partition_size, retention_ttl_ns, allow_drop_past_committed,"
                + " idempotency_key_ttl_ns, empty_compaction_head_ttl_ns, delivery_log_mode, fence_warn_after_ns,"
                + " system_id = (SELECT id FROM " + database.schema() + ".system_config) FROM " + database.schema()
                + ".stream_config WHERE id = ?", id))
                .containsExactly(List.of("1000000", "0", "f", "86400000000000", "3600000000000", "failures",
                        "10000000000", "t"));

        // a snapshot of the declaration, with who declared it
        List<List<String>> snapshots = probe.table("SELECT name, partition_size, retention_ttl_ns,"
                + " allow_drop_past_committed, idempotency_key_ttl_ns, empty_compaction_head_ttl_ns, delivery_log_mode,"
                + " fence_warn_after_ns, declared_by FROM " + database.schema() + ".stream_config_log"
                + " WHERE stream_id = ?", id);
        assertThat(snapshots).hasSize(1);
        assertThat(snapshots.get(0).subList(0, 8)).containsExactly("reg.first", "1000000", "0", "f",
                "86400000000000", "3600000000000", "failures", "10000000000");
        assertThat(snapshots.get(0).get(8)).isNotBlank().matches(DECLARED_BY);

        // the stream's own workers: janitor active, vacuum suspended, default declarations stored as {}
        assertThat(workers(probe, id)).containsExactly(
                List.of("stream_janitor", "1", "true"),
                List.of("stream_vacuum", "0", "true"));
        assertThat(probe.table("SELECT w.name, l.target_instances, l.metadata = '{}'::jsonb, l.declared_by FROM "
                + database.schema() + ".worker_config_log l JOIN " + database.schema() + ".worker_config w ON w.id ="
                + " l.worker_id WHERE w.stream_id = ? ORDER BY w.name", id))
                .hasSize(2)
                .allSatisfy(row -> assertThat(row.get(3)).matches(DECLARED_BY))
                .extracting(row -> row.subList(0, 3))
                .containsExactly(List.of("stream_janitor", "1", "t"), List.of("stream_vacuum", "0", "t"));

        assertThat(logger.withCode("SQL0061")).isEmpty();
        assertThat(logger.withCode("SQL0059")).isEmpty();
    }

    @Test
    @Order(2)
    void sharedTablesHaveTheDocumentedColumns() throws SQLException {
        client.stream("reg.columns", Placed.class).register();
        Map<String, List<String>> expected = Map.ofEntries(
                Map.entry("system_config", List.of("id", "created_at", "updated_at")),
                Map.entry("stream_config", List.of("id", "system_id", "name", "partition_size", "retention_ttl_ns",
                        "allow_drop_past_committed", "idempotency_key_ttl_ns", "empty_compaction_head_ttl_ns",
                        "delivery_log_mode", "fence_warn_after_ns", "created_at", "updated_at")),
                Map.entry("stream_config_log", List.of("id", "stream_id", "name", "partition_size", "retention_ttl_ns",
                        "allow_drop_past_committed", "idempotency_key_ttl_ns", "empty_compaction_head_ttl_ns",
                        "delivery_log_mode", "fence_warn_after_ns", "declared_by", "declared_at")),
                Map.entry("consumer_group_config", List.of("id", "stream_id", "name", "created_at", "updated_at")),
                Map.entry("worker_config", List.of("id", "system_id", "stream_id", "consumer_group_id", "name",
                        "metadata", "target_instances", "created_at", "updated_at")),
                Map.entry("worker_config_log", List.of("id", "worker_id", "name", "metadata", "target_instances",
                        "declared_by", "declared_at")),
                Map.entry("worker_instance", List.of("id", "worker_id", "token", "expires_at", "attempts", "created_at")),
                Map.entry("worker_instance_log", List.of("id", "worker_instance_id", "worker_id", "token", "expires_at",
                        "attempts", "created_at", "attempted_at")),
                Map.entry("schedule_config", List.of("id", "system_id", "stream_id", "name", "expression", "suspended",
                        "schema_version", "payload", "concurrency", "timeout_ns", "metadata", "created_at", "updated_at")),
                Map.entry("schedule_cursor", List.of("id", "schedule_id", "next_scheduled_at", "last_scheduled_at")),
                Map.entry("consumer_group_action_log", List.of("id", "consumer_group_id", "action", "actor", "filter",
                        "affected", "acted_at")),
                Map.entry("migration_log", List.of("id", "system_id", "stream_id", "consumer_group_id", "version",
                        "min_compatible_version", "status", "error", "created_at")));
        assertThat(expected.keySet()).containsExactlyInAnyOrderElementsOf(SchemaProbe.SHARED_TABLES);
        for (Map.Entry<String, List<String>> table : expected.entrySet()) {
            assertThat(probe.columns(table.getKey())).as(table.getKey())
                    .containsExactlyInAnyOrderElementsOf(table.getValue());
        }
        assertThat(probe.columnType("worker_config", "metadata")).isEqualTo("jsonb");
        assertThat(probe.columnType("worker_instance", "token")).isEqualTo("uuid");
        assertThat(probe.columnType("stream_config", "retention_ttl_ns")).isEqualTo("int8");
        // one worker of each name per owner
        assertThat(probe.indexDefinitions("worker_config"))
                .anySatisfy(definition -> assertThat(definition).startsWith("CREATE UNIQUE INDEX")
                        .contains("(name, stream_id)").contains("WHERE (stream_id IS NOT NULL)"))
                .anySatisfy(definition -> assertThat(definition).startsWith("CREATE UNIQUE INDEX")
                        .contains("(name, consumer_group_id)").contains("WHERE (consumer_group_id IS NOT NULL)"))
                .anySatisfy(definition -> assertThat(definition).startsWith("CREATE UNIQUE INDEX")
                        .contains("(name, system_id)").contains("WHERE (system_id IS NOT NULL)"));
    }

    @Test
    void familyTablesHaveTheDocumentedColumns() throws SQLException {
        long id = client.stream("reg.family.columns", Placed.class).register().id();
        Map<String, List<String>> expected = Map.of(
                "message_log", List.of("id", "schema_version", "routing_key", "message_key", "compaction_rank",
                        "payload", "options", "headers", "created_at"),
                "idempotency_key", List.of("idempotency_key", "created_at"),
                "exception_queue", List.of("consumer_group_id", "message_id", "status", "message_key", "concurrency",
                        "attempts", "delays", "can_run_after", "last_error", "lease_token", "lease_expires_at",
                        "created_at", "updated_at"),
                "delivery_log", List.of("id", "consumer_group_id", "message_id", "attempt", "status", "error",
                        "attempted_at"),
                "consumer_group_cursor", List.of("id", "consumer_group_id", "claimed", "committed", "settled_head",
                        "pending_head", "pending_xid"),
                "claim_lease", List.of("consumer_group_id", "token", "low", "high", "expires_at", "reclaims"),
                "message_key_lease", List.of("consumer_group_id", "message_key", "token", "expires_at"),
                "compaction_head", List.of("compaction_key", "message_id", "schema_version", "compaction_rank",
                        "created_at", "updated_at"),
                "binding_config", List.of("id", "consumer_group_id", "pattern", "pattern_regex", "created_at",
                        "updated_at"),
                "binding_config_log", List.of("id", "consumer_group_id", "status", "patterns", "declared_by",
                        "declared_at", "attempted_at"));
        assertThat(expected.keySet()).containsExactlyInAnyOrderElementsOf(SchemaProbe.FAMILY_PREFIXES);
        for (Map.Entry<String, List<String>> table : expected.entrySet()) {
            assertThat(probe.columns(table.getKey() + "_" + id)).as(table.getKey())
                    .containsExactlyInAnyOrderElementsOf(table.getValue());
        }
        assertThat(probe.columnType("message_log_" + id, "payload")).isEqualTo("jsonb");
        assertThat(probe.columnType("message_log_" + id, "options")).isEqualTo("jsonb");
        assertThat(probe.columnType("idempotency_key_" + id, "idempotency_key")).isEqualTo("uuid");
        assertThat(probe.columnType("consumer_group_cursor_" + id, "pending_xid")).isEqualTo("xid8");
        assertThat(probe.columnType("binding_config_log_" + id, "patterns")).isEqualTo("_text");
        assertThat(probe.indexDefinitions("message_log_" + id))
                .anySatisfy(definition -> assertThat(definition).contains("(message_key, id)")
                        .contains("WHERE (message_key IS NOT NULL)"));
    }

    @Test
    void partitionZeroCoversTheDeclaredPartitionSize() throws SQLException {
        io.sqlstreams.Stream stream = client.stream("reg.partition.ten", Placed.class)
                .register(StreamConfig.builder().partitionSize(10L).build());
        String log = "message_log_" + stream.id();
        assertThat(stream.partitionSize()).isEqualTo(10L);
        assertThat(probe.partitions(log)).containsExactly(log + "_0: FOR VALUES FROM ('0') TO ('10')");
        assertThat(probe.sequenceCache(log + "_id_seq")).contains(1L);
    }

    @Test
    void aNullConfigMeansTheDefaults() {
        io.sqlstreams.Stream viaNull = client.stream("reg.null.config", Placed.class).register(null);
        assertThat(viaNull.partitionSize()).isEqualTo(StreamConfig.DEFAULT_PARTITION_SIZE);
        assertThat(viaNull.retentionTtl()).isEqualTo(Duration.ZERO);
        assertThat(viaNull.idempotencyKeyTtl()).isEqualTo(Duration.ofHours(24));
        assertThat(viaNull.emptyCompactionHeadTtl()).isEqualTo(Duration.ofHours(1));
        assertThat(viaNull.deliveryLogMode()).isEqualTo(DeliveryLogMode.FAILURES);
        assertThat(viaNull.fenceWarnAfter()).isEqualTo(Duration.ofSeconds(10));

        // zero durations mean "the default", never "forever" (idempotency) or "immediately" (empty heads)
        io.sqlstreams.Stream viaZeros = client.stream("reg.zero.config", Placed.class).register(new StreamConfig(0L,
                Duration.ZERO, false, Duration.ZERO, Duration.ZERO, null, null, null, Duration.ZERO));
        assertThat(viaZeros.partitionSize()).isEqualTo(StreamConfig.DEFAULT_PARTITION_SIZE);
        assertThat(viaZeros.retentionTtl()).isEqualTo(Duration.ZERO);
        assertThat(viaZeros.idempotencyKeyTtl()).isEqualTo(Duration.ofHours(24));
        assertThat(viaZeros.emptyCompactionHeadTtl()).isEqualTo(Duration.ofHours(1));
        assertThat(viaZeros.fenceWarnAfter()).isEqualTo(Duration.ofSeconds(10));
    }

    // ------------------------------------------------------------------------------------------------------------
    // Worker metadata documents

    @Test
    void workerMetadataIsSparse() throws SQLException {

        long pollOnly = client.stream("reg.sparse.poll", Placed.class).register(StreamConfig.builder()
                .janitor(new JanitorConfig(Duration.ofSeconds(10), null, null, null)).build()).id();
        assertThat(metadata(probe, pollOnly, "stream_janitor")).isEqualTo("{\"poll_rate\": \"10s\"}");
        assertThat(metadata(probe, pollOnly, "stream_vacuum")).isEqualTo("{}");

        long full = client.stream("reg.sparse.full", Placed.class).register(StreamConfig.builder()
                .janitor(new JanitorConfig(Duration.ofMillis(1500), 500, Duration.ofMinutes(2), Duration.ofHours(1)))
                .vacuum(new VacuumConfig(Duration.ofSeconds(90), Duration.ofMillis(500))).build()).id();
        assertThat(metadataMatches(probe, full, "stream_janitor", "{\"poll_rate\": \"1.5s\", \"sweep_batch_size\": 500,"
                + " \"cleanup_timeout\": \"2m0s\", \"partial_sweep_grace_period\": \"1h0m0s\"}")).isTrue();
        assertThat(metadataMatches(probe, full, "stream_vacuum",
                "{\"poll_rate\": \"1m30s\", \"vacuum_timeout\": \"500ms\"}")).isTrue();

        // explicit zeros are "unset" and stay out of the document
        long zeros = client.stream("reg.sparse.zero", Placed.class).register(StreamConfig.builder()
                .janitor(new JanitorConfig(Duration.ZERO, 0, Duration.ZERO, Duration.ZERO))
                .vacuum(new VacuumConfig(Duration.ZERO, Duration.ZERO)).build()).id();
        assertThat(metadata(probe, zeros, "stream_janitor")).isEqualTo("{}");
        assertThat(metadata(probe, zeros, "stream_vacuum")).isEqualTo("{}");
    }

    // ------------------------------------------------------------------------------------------------------------
    // Redeclaration

    @Test
    void anIdenticalRedeclarationWritesNothing() throws SQLException {
        StreamConfig config = StreamConfig.builder().partitionSize(50L).retentionTtl(Duration.ofMinutes(90))
                .allowDropPastCommitted(true).emptyCompactionHeadTtl(Duration.ofMinutes(5))
                .deliveryLogMode(DeliveryLogMode.OFF)
                .janitor(new JanitorConfig(Duration.ofSeconds(7), 250, null, Duration.ofSeconds(30)))
                .vacuum(new VacuumConfig(Duration.ofMinutes(3), null)).build();
        StreamHandle<Placed> handle = client.stream("reg.identical", Placed.class);
        io.sqlstreams.Stream first = handle.register(config);
        long id = first.id();
        List<List<String>> workersBefore = workerRows(probe, id);
        long streamLogBefore = probe.rowCount("stream_config_log", "stream_id = ?", id);
        long workerLogBefore = workerLogCount(probe, id);
        long migrationsBefore = probe.rowCount("migration_log");
        List<String> tablesBefore = probe.tables();

        io.sqlstreams.Stream again = handle.register(config);
        // the same declaration spelled differently: explicit defaults, and a rebuilt record
        io.sqlstreams.Stream spelledOut = handle.register(config.toBuilder()
                .idempotencyKeyTtl(StreamConfig.DEFAULT_IDEMPOTENCY_KEY_TTL).build());
        // and from another client (another declarer)
        RecordingLogger otherLogger = new RecordingLogger();
        io.sqlstreams.Stream fromOther = EngineFixtures.client(database, otherLogger)
                .stream("reg.identical", Placed.class).register(config);

        assertThat(again).isEqualTo(first);
        assertThat(spelledOut).isEqualTo(first);
        assertThat(fromOther).isEqualTo(first);
        assertThat(handle.get()).contains(first);
        assertThat(probe.rowCount("stream_config_log", "stream_id = ?", id)).isEqualTo(streamLogBefore).isEqualTo(1);
        assertThat(workerLogCount(probe, id)).isEqualTo(workerLogBefore).isEqualTo(2);
        assertThat(workerRows(probe, id)).as("worker rows incl. updated_at").isEqualTo(workersBefore);
        assertThat(probe.rowCount("migration_log")).isEqualTo(migrationsBefore);
        assertThat(probe.tables()).isEqualTo(tablesBefore);
        assertThat(logger.withCode("SQL0061")).isEmpty();
        assertThat(logger.withCode("SQL0059")).isEmpty();
        assertThat(otherLogger.withCode("SQL0061")).isEmpty();
        assertThat(otherLogger.withCode("SQL0059")).isEmpty();
    }

    @Test
    void aDifferingDeclarationReplacesTheRowAndLogsSql0061() throws SQLException {
        StreamHandle<Placed> handle = client.stream("reg.differing", Placed.class);
        io.sqlstreams.Stream original = handle.register();
        long id = original.id();
        List<List<String>> workersBefore = workerRows(probe, id);

        io.sqlstreams.Stream replaced = handle.register(StreamConfig.builder().retentionTtl(Duration.ofHours(1))
                .deliveryLogMode(DeliveryLogMode.ALL).build());

        assertThat(replaced.id()).isEqualTo(id);
        assertThat(replaced.retentionTtl()).isEqualTo(Duration.ofHours(1));
        assertThat(replaced.deliveryLogMode()).isEqualTo(DeliveryLogMode.ALL);
        assertThat(replaced.partitionSize()).isEqualTo(original.partitionSize());
        assertThat(replaced.idempotencyKeyTtl()).isEqualTo(original.idempotencyKeyTtl());
        assertThat(replaced.emptyCompactionHeadTtl()).isEqualTo(original.emptyCompactionHeadTtl());
        assertThat(replaced.createdAt()).isEqualTo(original.createdAt());
        assertThat(replaced.updatedAt()).isAfter(original.updatedAt());
        assertThat(handle.get()).contains(replaced);
        assertThat(probe.table("SELECT retention_ttl_ns, delivery_log_mode FROM " + database.schema()
                + ".stream_config WHERE id = ?", id)).containsExactly(List.of(Long.toString(NANOS_PER_HOUR), "all"));

        List<List<String>> snapshots = probe.table("SELECT retention_ttl_ns, delivery_log_mode, declared_by FROM "
                + database.schema() + ".stream_config_log WHERE stream_id = ? ORDER BY id", id);
        assertThat(snapshots).hasSize(2);
        assertThat(snapshots.get(0).subList(0, 2)).containsExactly("0", "failures");
        assertThat(snapshots.get(1).subList(0, 2)).containsExactly(Long.toString(NANOS_PER_HOUR), "all");
        assertThat(snapshots.get(1).get(2)).matches(DECLARED_BY);

        List<String> lines = logger.withCode("SQL0061");
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).contains("reg.differing").contains("retention_ttl 0s -> 1h0m0s")
                .contains("delivery_log_mode failures -> all")
                .doesNotContain("idempotency_key_ttl").doesNotContain("empty_compaction_head_ttl")
                .doesNotContain("allow_drop_past_committed");
        assertThat(logger.lines()).filteredOn(line -> line.text().startsWith("SQL0061 "))
                .allSatisfy(line -> assertThat(line.level()).isEqualTo(System.Logger.Level.WARNING));
        assertThat(logger.withCode("SQL0059")).as("workers unchanged").isEmpty();
        assertThat(workerRows(probe, id)).isEqualTo(workersBefore);

        // newest wins in the other direction too: back to the defaults
        io.sqlstreams.Stream reverted = handle.register();
        assertThat(reverted.retentionTtl()).isEqualTo(Duration.ZERO);
        assertThat(reverted.deliveryLogMode()).isEqualTo(DeliveryLogMode.FAILURES);
        assertThat(probe.rowCount("stream_config_log", "stream_id = ?", id)).isEqualTo(3);
        assertThat(logger.withCode("SQL0061")).hasSize(2);
        assertThat(logger.withCode("SQL0061").get(1)).contains("retention_ttl 1h0m0s -> 0s")
                .contains("delivery_log_mode all -> failures");
    }

    @Test
    void everyStoredFieldParticipatesInTheDifference() throws SQLException {
        StreamHandle<Placed> handle = client.stream("reg.every.field", Placed.class);
        long id = handle.register().id();
        io.sqlstreams.Stream replaced = handle.register(StreamConfig.builder().allowDropPastCommitted(true)
                .idempotencyKeyTtl(Duration.ofHours(2)).emptyCompactionHeadTtl(Duration.ofMinutes(10))
                .fenceWarnAfter(Duration.ofSeconds(3)).build());
        assertThat(replaced.allowDropPastCommitted()).isTrue();
        assertThat(replaced.idempotencyKeyTtl()).isEqualTo(Duration.ofHours(2));
        assertThat(replaced.emptyCompactionHeadTtl()).isEqualTo(Duration.ofMinutes(10));
        assertThat(replaced.fenceWarnAfter()).isEqualTo(Duration.ofSeconds(3));
        assertThat(logger.withCode("SQL0061")).singleElement().asString()
                .contains("allow_drop_past_committed false -> true")
                .contains("idempotency_key_ttl 24h0m0s -> 2h0m0s")
                .contains("empty_compaction_head_ttl 1h0m0s -> 10m0s")
                .contains("fence_warn_after 10s -> 3s")
                .doesNotContain("retention_ttl").doesNotContain("delivery_log_mode");
        assertThat(probe.rowCount("stream_config_log", "stream_id = ?", id)).isEqualTo(2);
        assertThat(probe.table("SELECT fence_warn_after_ns FROM " + database.schema() + ".stream_config_log"
                + " WHERE stream_id = ? ORDER BY id", id))
                .containsExactly(List.of("10000000000"), List.of("3000000000"));
    }

    @Test
    void aChangedWorkerConfigLogsSql0059AndKeepsTheTarget() throws SQLException {
        StreamHandle<Placed> handle = client.stream("reg.janitor.change", Placed.class);
        long id = handle.register().id();
        // an operator unsuspends the vacuum and suspends the janitor
        assertThat(probe.update("UPDATE " + database.schema() + ".worker_config SET target_instances = 1"
                + " WHERE stream_id = ? AND name = 'stream_vacuum'", id)).isEqualTo(1);
        assertThat(probe.update("UPDATE " + database.schema() + ".worker_config SET target_instances = 0"
                + " WHERE stream_id = ? AND name = 'stream_janitor'", id)).isEqualTo(1);
        long streamLogBefore = probe.rowCount("stream_config_log", "stream_id = ?", id);

        // unchanged declaration: the operator's targets survive and nothing is logged
        handle.register();
        assertThat(workers(probe, id)).containsExactly(List.of("stream_janitor", "0", "true"),
                List.of("stream_vacuum", "1", "true"));
        assertThat(workerLogCount(probe, id)).isEqualTo(2);

        handle.register(StreamConfig.builder().janitor(new JanitorConfig(Duration.ofSeconds(10), null, null, null))
                .vacuum(new VacuumConfig(Duration.ofMinutes(3), null)).build());

        assertThat(metadata(probe, id, "stream_janitor")).isEqualTo("{\"poll_rate\": \"10s\"}");
        assertThat(metadata(probe, id, "stream_vacuum")).isEqualTo("{\"poll_rate\": \"3m0s\"}");
        assertThat(probe.table("SELECT name, target_instances FROM " + database.schema()
                + ".worker_config WHERE stream_id = ? ORDER BY name", id))
                .as("a redeclaration keeps target_instances")
                .containsExactly(List.of("stream_janitor", "0"), List.of("stream_vacuum", "1"));
        // each replaced worker appends one snapshot with the new document and the kept target
        assertThat(probe.table("SELECT w.name, l.metadata::text, l.target_instances FROM " + database.schema()
                + ".worker_config_log l JOIN " + database.schema() + ".worker_config w ON w.id = l.worker_id"
                + " WHERE w.stream_id = ? ORDER BY l.id", id)).containsExactly(
                List.of("stream_janitor", "{}", "1"),
                List.of("stream_vacuum", "{}", "0"),
                List.of("stream_janitor", "{\"poll_rate\": \"10s\"}", "0"),
                List.of("stream_vacuum", "{\"poll_rate\": \"3m0s\"}", "1"));

        assertThat(logger.withCode("SQL0059")).as("one line for the redeclaration, naming each worker's change")
                .containsExactly("SQL0059 stream \"reg.janitor.change\" worker config replaced by a differing"
                        + " declaration: stream_janitor.poll_rate (unset) -> 10s;"
                        + " stream_vacuum.poll_rate (unset) -> 3m0s");
        assertThat(logger.withCode("SQL0061")).as("the stream row did not change").isEmpty();
        assertThat(probe.rowCount("stream_config_log", "stream_id = ?", id)).isEqualTo(streamLogBefore);

        // and a further identical redeclaration is quiet again
        handle.register(StreamConfig.builder().janitor(new JanitorConfig(Duration.ofSeconds(10), null, null, null))
                .vacuum(new VacuumConfig(Duration.ofMinutes(3), null)).build());
        assertThat(logger.withCode("SQL0059")).hasSize(1);
        assertThat(workerLogCount(probe, id)).isEqualTo(4);

        // a change to one worker names that worker's path only
        handle.register(StreamConfig.builder().janitor(new JanitorConfig(Duration.ofSeconds(20), null, null, null))
                .vacuum(new VacuumConfig(Duration.ofMinutes(3), null)).build());
        assertThat(logger.withCode("SQL0059")).hasSize(2).last().isEqualTo("SQL0059 stream \"reg.janitor.change\""
                + " worker config replaced by a differing declaration: stream_janitor.poll_rate 10s -> 20s");
        assertThat(workerLogCount(probe, id)).isEqualTo(5);
    }

    @Test
    void thePartitionSizeCannotChange() throws SQLException {
        StreamHandle<Placed> handle = client.stream("reg.partition.fixed", Placed.class);
        io.sqlstreams.Stream original = handle.register(StreamConfig.builder().partitionSize(10L).build());
        List<List<String>> rowBefore = streamRow(probe, original.id());

        SqlStreamsException mismatch = catchThrowableOfType(() -> handle.register(StreamConfig.builder()
                .partitionSize(20L).retentionTtl(Duration.ofHours(1)).build()), SqlStreamsException.class);
        assertThat(mismatch.code()).isEqualTo(Code.SQL0004);
        assertThat(mismatch.getMessage()).startsWith("SQL0004 ").contains("reg.partition.fixed").contains("10")
                .contains("20");

        // leaving the partition size out means the default, which differs too
        assertThatThrownBy(() -> handle.register())
                .isInstanceOfSatisfying(SqlStreamsException.class, e -> assertThat(e.code()).isEqualTo(Code.SQL0004));

        assertThat(streamRow(probe, original.id())).as("row unchanged, retention not applied").isEqualTo(rowBefore);
        assertThat(handle.get()).contains(original);
        assertThat(probe.rowCount("stream_config_log", "stream_id = ?", original.id())).isEqualTo(1);
        assertThat(probe.partitions("message_log_" + original.id()))
                .containsExactly("message_log_" + original.id() + "_0: FOR VALUES FROM ('0') TO ('10')");
        assertThat(logger.withCode("SQL0061")).isEmpty();

        // the original size is still accepted
        assertThat(handle.register(StreamConfig.builder().partitionSize(10L).build())).isEqualTo(original);
    }

    // ------------------------------------------------------------------------------------------------------------
    // Concurrency

    @Test
    void concurrentFirstRegistrationOfANewStreamCreatesOneStream() throws Exception {
        EngineClient one = client;
        EngineClient two = EngineFixtures.client(database, logger);
        one.stream("reg.race.warmup", Placed.class).register();

        List<Long> ids = raceRegister(List.of(one, two), "reg.race", 8);

        assertThat(ids).hasSize(8).containsOnly(ids.get(0));
        assertRaceOutcome(probe, ids.get(0), "reg.race");
        assertThat(logger.withCode("SQL0061")).isEmpty();
        assertThat(logger.withCode("SQL0059")).isEmpty();
    }

    @Test
    void concurrentFirstRegistrationOnAnEmptySchemaInstallsOnce() throws Exception {
        String schema = database.extraSchema("race");
        EngineClient one = clientOn(database.dataSource(), schema, true, logger);
        EngineClient two = clientOn(database.dataSource(), schema, true, logger);

        List<Long> ids = raceRegister(List.of(one, two), "reg.race.install", 8);

        SchemaProbe probe = new SchemaProbe(database, schema);
        assertThat(ids).hasSize(8).containsOnly(ids.get(0));
        assertThat(probe.rowCount("system_config")).isEqualTo(1);
        assertThat(probe.rowCount("migration_log", "system_id IS NOT NULL")).isEqualTo(1);
        assertThat(probe.rowCount("stream_config")).isEqualTo(1);
        assertThat(probe.tables()).containsExactlyInAnyOrderElementsOf(SchemaProbe.installedTables(ids.get(0)));
        assertRaceOutcome(probe, ids.get(0), "reg.race.install");
    }

    private static List<Long> raceRegister(List<EngineClient> clients, String name, int threads) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch ready = new CountDownLatch(threads);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Long>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                EngineClient client = clients.get(i % clients.size());
                Callable<Long> register = () -> {
                    ready.countDown();
                    go.await();
                    return client.stream(name, Placed.class).register().id();
                };
                results.add(pool.submit(register));
            }
            assertThat(ready.await(30, TimeUnit.SECONDS)).isTrue();
            go.countDown();
            List<Long> ids = new ArrayList<>();
            for (Future<Long> result : results) {
                ids.add(result.get(60, TimeUnit.SECONDS));
            }
            return ids;
        } finally {
            pool.shutdownNow();
        }
    }

    private static void assertRaceOutcome(SchemaProbe probe, long id, String name) throws SQLException {
        String schema = probe.schema();
        assertThat(probe.rowCount("stream_config", "name = ?", name)).isEqualTo(1);
        assertThat(probe.text("SELECT id FROM " + schema + ".stream_config WHERE name = ?", name))
                .isEqualTo(Long.toString(id));
        assertThat(probe.familyTablesPresent(id)).containsExactlyInAnyOrderElementsOf(SchemaProbe.registeredFamilyTables(id));
        assertThat(probe.partitions("message_log_" + id)).hasSize(1);
        assertThat(probe.rowCount("migration_log", "stream_id = ?", id)).isEqualTo(1);
        assertThat(probe.rowCount("stream_config_log", "stream_id = ?", id)).isEqualTo(1);
        assertThat(probe.rowCount("worker_config", "stream_id = ?", id)).isEqualTo(2);
        assertThat(workerLogCount(probe, id)).isEqualTo(2);
        // no family was created for an id that lost the race
        assertThat(probe.relations()).filteredOn(relation -> relation.matches("message_log_\\d+"))
                .containsExactlyInAnyOrderElementsOf(probe.strings("SELECT 'message_log_' || id FROM " + schema
                        + ".stream_config"));
    }

    // ------------------------------------------------------------------------------------------------------------
    // Rejected declarations

    @Test
    void theReservedSystemPrefixIsRefused() throws SQLException {
        client.stream("reg.reserved.warmup", Placed.class).register();
        long streams = probe.rowCount("stream_config");
        for (String name : List.of("__system.x", "__system.alerts", "__system.")) {
            assertThatThrownBy(() -> client.stream(name, Placed.class).register())
                    .as(name)
                    .isInstanceOfSatisfying(SqlStreamsException.class, e -> {
                        assertThat(e.code()).isEqualTo(Code.SQL0009);
                        assertThat(e.getMessage()).startsWith("SQL0009 ").contains(name);
                    });
        }
        assertThat(probe.rowCount("stream_config")).isEqualTo(streams);
        assertThat(probe.rowCount("stream_config", "name LIKE '\\_\\_system.%'")).isZero();
    }

    static Stream<Arguments> invalidNames() {
        return Stream.of(Arguments.of(""), Arguments.of("a;drop table x"), Arguments.of("with space"),
                Arguments.of("a/b"), Arguments.of("-lead"), Arguments.of(".lead"), Arguments.of("x".repeat(201)),
                Arguments.of("tab\tname"), Arguments.of("quote\"d"), Arguments.of("ünïcode"), Arguments.of((Object) null));
    }

    @ParameterizedTest
    @MethodSource("invalidNames")
    void invalidNamesAreRefusedBeforeAnyWrite(String name) throws SQLException {
        client.stream("reg.invalid.warmup", Placed.class).register();
        long streams = probe.rowCount("stream_config");
        long logs = probe.rowCount("stream_config_log");
        List<String> tables = probe.tables();

        InvalidNameException refused = catchThrowableOfType(() -> client.stream(name, Placed.class).register(),
                InvalidNameException.class);

        assertThat(refused).as("register(%s)", name).isNotNull();
        assertThat(refused.code()).isEqualTo(Code.SQL0109);
        assertThat(refused.kind()).isEqualTo("stream");
        assertThat(refused.name()).isEqualTo(name);
        assertThat(probe.rowCount("stream_config")).isEqualTo(streams);
        assertThat(probe.rowCount("stream_config_log")).isEqualTo(logs);
        assertThat(probe.tables()).isEqualTo(tables);
    }

    @Test
    void invalidFirstCallsCreateNothing() throws SQLException {
        String schema = database.extraSchema("fresh");
        EngineClient client = clientOn(schema, true);
        SchemaProbe probe = new SchemaProbe(database, schema);

        invalidNames().map(arguments -> (String) arguments.get()[0]).forEach(name ->
                assertThatThrownBy(() -> client.stream(name, Placed.class).register()).as("register(%s)", name)
                        .isInstanceOfSatisfying(InvalidNameException.class,
                                e -> assertThat(e.code()).isEqualTo(Code.SQL0109)));
        assertThatThrownBy(() -> client.stream("__system.x", Placed.class).register())
                .isInstanceOfSatisfying(SqlStreamsException.class, e -> assertThat(e.code()).isEqualTo(Code.SQL0009));
        assertThatThrownBy(() -> client.stream("reg.fresh.bad", Placed.class).register(badConfig()))
                .isInstanceOfSatisfying(InvalidConfigurationException.class,
                        e -> assertThat(e.code()).isEqualTo(Code.SQL0108));
        assertThatThrownBy(() -> client.stream("reg.fresh.long", Placed.class).register(StreamConfig.builder()
                .retentionTtl(Duration.ofDays(200_000)).build()))
                .isInstanceOfSatisfying(InvalidConfigurationException.class,
                        e -> assertThat(e.code()).isEqualTo(Code.SQL0108));

        assertThat(probe.schemaExists()).as("no schema, so no shared tables either").isFalse();
        assertThat(probe.tables()).isEmpty();
    }

    @Test
    void boundaryNamesAreAccepted() {
        for (String name : List.of("a", "_x", "9lives", "a.b-c_d", "Mixed.Case", "y".repeat(200))) {
            io.sqlstreams.Stream stream = client.stream(name, Placed.class).register();
            assertThat(stream.name()).isEqualTo(name);
            assertThat(client.stream(name, Placed.class).get()).contains(stream);
        }
    }

    @Test
    void anInvalidConfigurationListsEveryViolationAndWritesNothing() throws SQLException {
        client.stream("reg.badconfig.warmup", Placed.class).register();
        long streams = probe.rowCount("stream_config");
        List<String> tables = probe.tables();

        InvalidConfigurationException invalid = catchThrowableOfType(
                () -> client.stream("reg.badconfig", Placed.class).register(badConfig()),
                InvalidConfigurationException.class);

        assertThat(invalid.code()).isEqualTo(Code.SQL0108);
        assertThat(invalid.violations()).extracting(InvalidConfigurationException.Violation::property)
                .containsExactlyInAnyOrder("partitionSize", "retentionTtl", "janitor.sweepBatchSize");
        assertThat(invalid.getMessage()).startsWith("SQL0108 ").contains("partitionSize").contains("retentionTtl")
                .contains("janitor.sweepBatchSize");
        assertThat(client.stream("reg.badconfig", Placed.class).get()).isEmpty();
        assertThat(probe.rowCount("stream_config")).isEqualTo(streams);
        assertThat(probe.tables()).isEqualTo(tables);
    }

    @Test
    void anInvalidRedeclarationLeavesTheStreamAlone() throws SQLException {
        StreamHandle<Placed> handle = client.stream("reg.badconfig.existing", Placed.class);
        io.sqlstreams.Stream original = handle.register();
        List<List<String>> workersBefore = workerRows(probe, original.id());

        assertThatThrownBy(() -> handle.register(StreamConfig.builder().retentionTtl(Duration.ofSeconds(-1))
                .janitor(new JanitorConfig(Duration.ofSeconds(1), -5, null, null)).build()))
                .isInstanceOfSatisfying(InvalidConfigurationException.class,
                        e -> assertThat(e.code()).isEqualTo(Code.SQL0108));

        assertThat(handle.get()).contains(original);
        assertThat(workerRows(probe, original.id())).isEqualTo(workersBefore);
        assertThat(probe.rowCount("stream_config_log", "stream_id = ?", original.id())).isEqualTo(1);
    }

    @Test
    void aRetentionBeyondTheNanosecondRangeIsRefused() throws SQLException {
        client.stream("reg.overflow.warmup", Placed.class).register();
        long streams = probe.rowCount("stream_config");

        InvalidConfigurationException tooLong = catchThrowableOfType(() -> client.stream("reg.overflow", Placed.class)
                .register(StreamConfig.builder().retentionTtl(Duration.ofDays(200_000)).build()),
                InvalidConfigurationException.class);
        assertThat(tooLong.code()).isEqualTo(Code.SQL0108);
        assertThat(tooLong.violations()).extracting(InvalidConfigurationException.Violation::property)
                .containsExactly("retentionTtl");

        InvalidConfigurationException allThree = catchThrowableOfType(() -> client.stream("reg.overflow", Placed.class)
                .register(StreamConfig.builder().retentionTtl(Duration.ofDays(200_000))
                        .idempotencyKeyTtl(Duration.ofSeconds(Long.MAX_VALUE))
                        .emptyCompactionHeadTtl(Duration.ofNanos(Long.MAX_VALUE).plusNanos(1)).build()),
                InvalidConfigurationException.class);
        assertThat(allThree.violations()).extracting(InvalidConfigurationException.Violation::property)
                .containsExactlyInAnyOrder("retentionTtl", "idempotencyKeyTtl", "emptyCompactionHeadTtl");

        assertThat(client.stream("reg.overflow", Placed.class).get()).isEmpty();
        assertThat(probe.rowCount("stream_config")).isEqualTo(streams);

        // the longest age a stream may keep something is fine and round-trips exactly
        Duration longest = Limits.LONGEST_AGE;
        io.sqlstreams.Stream stored = client.stream("reg.overflow.longest", Placed.class)
                .register(StreamConfig.builder().retentionTtl(longest).build());
        assertThat(stored.retentionTtl()).isEqualTo(longest);
        assertThat(client.stream("reg.overflow.longest", Placed.class).get().orElseThrow().retentionTtl())
                .isEqualTo(longest);
    }

    /**
     * Worker settings are stored as Go duration text in the worker's metadata, which the worker reads back with
     * {@code DurationText.parse}; a duration beyond ±2^63 ns cannot be read back, so it must be refused like the
     * stream's own durations (SQL0108, nothing written).
     */
    @Test
    void workerDurationsBeyondTheNanosecondRangeAreRefused() throws SQLException {
        client.stream("reg.worker.overflow.warmup", Placed.class).register();
        long streams = probe.rowCount("stream_config");

        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> client
                .stream("reg.worker.overflow", Placed.class).register(StreamConfig.builder()
                        .janitor(new JanitorConfig(Duration.ofDays(200_000), null, null, null))
                        .vacuum(new VacuumConfig(null, Duration.ofDays(200_000))).build()));

        List<String> stored = probe.strings("SELECT w.metadata::text FROM " + database.schema() + ".worker_config w"
                + " JOIN " + database.schema() + ".stream_config s ON s.id = w.stream_id WHERE s.name = ?"
                + " ORDER BY w.name", "reg.worker.overflow");
        assertThat(thrown).as("janitor.pollRate and vacuum.vacuumTimeout of 200,000 days were accepted and stored as %s",
                stored).isInstanceOf(InvalidConfigurationException.class);
        assertThat(((InvalidConfigurationException) thrown).violations())
                .extracting(InvalidConfigurationException.Violation::property)
                .containsExactlyInAnyOrder("janitor.pollRate", "vacuum.vacuumTimeout");
        assertThat(probe.rowCount("stream_config")).isEqualTo(streams);
    }

    /**
     * InvalidConfigurationException promises every violation in one pass; a range overflow must be reported
     * together with the rule violations of the same declaration.
     */
    @Test
    void overflowAndRuleViolationsAreReportedTogether() {
        InvalidConfigurationException invalid = catchThrowableOfType(() -> client.stream("reg.overflow.mixed",
                        Placed.class).register(StreamConfig.builder().partitionSize(1L)
                        .retentionTtl(Duration.ofDays(200_000)).build()),
                InvalidConfigurationException.class);
        assertThat(invalid.violations()).extracting(InvalidConfigurationException.Violation::property)
                .containsExactlyInAnyOrder("partitionSize", "retentionTtl");
    }

    // ------------------------------------------------------------------------------------------------------------

    private static StreamConfig badConfig() {
        return StreamConfig.builder().partitionSize(1L).retentionTtl(Duration.ofSeconds(-1))
                .janitor(new JanitorConfig(null, -5, null, null)).build();
    }

    /** name, target_instances, whether the metadata is the empty document. */
    private static List<List<String>> workers(SchemaProbe probe, long streamId) throws SQLException {
        return probe.table("SELECT name, target_instances, (metadata = '{}'::jsonb)::text FROM " + probe.schema()
                + ".worker_config WHERE stream_id = ? ORDER BY name", streamId);
    }

    /** Every column of the stream's worker rows, updated_at included. */
    private static List<List<String>> workerRows(SchemaProbe probe, long streamId) throws SQLException {
        return probe.table("SELECT id, name, metadata::text, target_instances, created_at, updated_at FROM "
                + probe.schema() + ".worker_config WHERE stream_id = ? ORDER BY name", streamId);
    }

    private static List<List<String>> streamRow(SchemaProbe probe, long streamId) throws SQLException {
        return probe.table("SELECT * FROM " + probe.schema() + ".stream_config WHERE id = ?", streamId);
    }

    private static long workerLogCount(SchemaProbe probe, long streamId) throws SQLException {
        return probe.count("SELECT count(*) FROM " + probe.schema() + ".worker_config_log l JOIN " + probe.schema()
                + ".worker_config w ON w.id = l.worker_id WHERE w.stream_id = ?", streamId);
    }

    private static String metadata(SchemaProbe probe, long streamId, String worker) throws SQLException {
        return probe.text("SELECT metadata::text FROM " + probe.schema() + ".worker_config WHERE stream_id = ?"
                + " AND name = ?", streamId, worker);
    }

    private static boolean metadataMatches(SchemaProbe probe, long streamId, String worker, String json)
            throws SQLException {
        return Boolean.parseBoolean(probe.text("SELECT (metadata = ?::jsonb)::text FROM " + probe.schema()
                + ".worker_config WHERE stream_id = ? AND name = ?", json, streamId, worker));
    }
}
