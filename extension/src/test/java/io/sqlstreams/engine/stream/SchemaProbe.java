package io.sqlstreams.engine.stream;

import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.sql.DataSource;

import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;

/**
 * Inspection queries for the stream tests on top of {@link Sql}: the catalog (tables, columns, sequences,
 * partitions) and row counts of one installation schema. Every value is bound; only the schema (a validated test
 * schema name) and table names built from numeric ids are spliced into SQL.
 */
final class SchemaProbe extends Sql {
    /** The shared control-plane tables of digest §1.3. */
    static final List<String> SHARED_TABLES = List.of("system_config", "stream_config", "stream_config_log",
            "consumer_group_config", "worker_config", "worker_config_log", "worker_instance", "worker_instance_log",
            "schedule_config", "schedule_cursor", "consumer_group_action_log", "migration_log");

    /** The per-stream family prefixes of digest §1.4 (each suffixed with {@code _<id>}). */
    static final List<String> FAMILY_PREFIXES = List.of("message_log", "idempotency_key", "exception_queue",
            "delivery_log", "consumer_group_cursor", "claim_lease", "message_key_lease", "compaction_head",
            "binding_config", "binding_config_log");

    SchemaProbe(DataSource dataSource, String schema) {
        super(dataSource, schema);
    }

    SchemaProbe(TestDatabase database) {
        super(database);
    }

    SchemaProbe(TestDatabase database, String schema) {
        super(database.dataSource(), schema);
    }

    /** The family's table names for one stream id. */
    static List<String> familyTables(long streamId) {
        return FAMILY_PREFIXES.stream().map(prefix -> prefix + "_" + streamId).toList();
    }

    /** The family's tables as registering the stream creates them: the family and partition 0 of its log. */
    static List<String> registeredFamilyTables(long streamId) {
        return Stream.concat(familyTables(streamId).stream(), Stream.of("message_log_" + streamId + "_0")).toList();
    }

    /** Every table of a schema where stream {@code id} is the only one registered. */
    static List<String> installedTables(long streamId) {
        return Stream.concat(SHARED_TABLES.stream(), registeredFamilyTables(streamId).stream()).toList();
    }

    /** Matches every relation (table, partition, index, sequence) that belongs to stream {@code id}'s family. */
    static Pattern familyRelation(long streamId) {
        return Pattern.compile("^(" + String.join("|", FAMILY_PREFIXES) + ")_" + streamId + "(_.*)?$");
    }

    boolean schemaExists() throws SQLException {
        return count("SELECT count(*) FROM pg_namespace WHERE nspname = ?", schema()) == 1;
    }

    /** Base and partitioned tables of the schema, from information_schema. */
    List<String> tables() throws SQLException {
        return strings("SELECT table_name FROM information_schema.tables WHERE table_schema = ? ORDER BY table_name",
                schema());
    }

    /** Every relation (any kind) in the schema, from pg_class. */
    List<String> relations() throws SQLException {
        return strings("SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                + " WHERE n.nspname = ? ORDER BY c.relname", schema());
    }

    /** Relations of stream {@code id}'s family still present in the schema. */
    List<String> familyRelations(long streamId) throws SQLException {
        Pattern family = familyRelation(streamId);
        return relations().stream().filter(name -> family.matcher(name).matches()).toList();
    }

    /** Tables (partitions included) of stream {@code id}'s family still present in the schema. */
    List<String> familyTablesPresent(long streamId) throws SQLException {
        Pattern family = familyRelation(streamId);
        return tables().stream().filter(name -> family.matcher(name).matches()).toList();
    }

    boolean tableExists(String table) throws SQLException {
        return count("SELECT count(*) FROM information_schema.tables WHERE table_schema = ? AND table_name = ?",
                schema(), table) == 1;
    }

    /** pg_class.relkind of a relation, or empty when absent. */
    Optional<String> relkind(String relation) throws SQLException {
        List<String> kinds = strings("SELECT c.relkind::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                + " WHERE n.nspname = ? AND c.relname = ?", schema(), relation);
        return kinds.isEmpty() ? Optional.empty() : Optional.of(kinds.get(0));
    }

    List<String> columns(String table) throws SQLException {
        return strings("SELECT column_name FROM information_schema.columns WHERE table_schema = ? AND table_name = ?"
                + " ORDER BY ordinal_position", schema(), table);
    }

    String columnType(String table, String column) throws SQLException {
        return text("SELECT udt_name FROM information_schema.columns WHERE table_schema = ? AND table_name = ?"
                + " AND column_name = ?", schema(), table, column);
    }

    /** The partitions of a partitioned table with their bound expressions, "name: FOR VALUES …". */
    List<String> partitions(String parent) throws SQLException {
        return strings("SELECT c.relname || ': ' || pg_get_expr(c.relpartbound, c.oid)"
                + " FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid"
                + " JOIN pg_class p ON p.oid = i.inhparent JOIN pg_namespace n ON n.oid = p.relnamespace"
                + " WHERE n.nspname = ? AND p.relname = ? ORDER BY c.relname", schema(), parent);
    }

    /** pg_get_partkeydef of a partitioned table, such as {@code RANGE (id)}; empty when not partitioned. */
    Optional<String> partitionKey(String table) throws SQLException {
        List<String> keys = strings("SELECT pg_get_partkeydef(c.oid) FROM pg_class c"
                + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = ?"
                + " AND c.relkind = 'p'", schema(), table);
        return keys.isEmpty() ? Optional.empty() : Optional.ofNullable(keys.get(0));
    }

    /** pg_sequences.cache_size of a sequence in the schema, or empty when it does not exist. */
    Optional<Long> sequenceCache(String sequence) throws SQLException {
        List<String> caches = strings("SELECT cache_size::text FROM pg_sequences WHERE schemaname = ? AND sequencename = ?",
                schema(), sequence);
        return caches.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(caches.get(0)));
    }

    /** Index definitions of a table. */
    List<String> indexDefinitions(String table) throws SQLException {
        return strings("SELECT indexdef FROM pg_indexes WHERE schemaname = ? AND tablename = ? ORDER BY indexname",
                schema(), table);
    }

    /** {@code count(*)} of a table in the schema. */
    long rowCount(String table) throws SQLException {
        return count("SELECT count(*) FROM {s}." + table);
    }

    /** {@code count(*)} of a table in the schema under a where clause with bound arguments. */
    long rowCount(String table, String where, Object... arguments) throws SQLException {
        return count("SELECT count(*) FROM {s}." + table + " WHERE " + where, arguments);
    }
}
