package io.sqlstreams.engine.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.DestroyOptions;
import io.sqlstreams.InvalidNameException;
import io.sqlstreams.Producer;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;

/**
 * The stream verbs besides register (digest §2.1, §2.3): get, client.streams, rename, destroy and consumers,
 * against a real PostgreSQL.
 */
@PostgresTest
class StreamVerbsTest extends StreamTestBase {
    @SchemaVersion(1)
    public record Shipped(String orderId) {
    }

    private static ProduceResult produceOne(StreamHandle<Shipped> stream, String orderId) {
        try (Producer<Shipped> producer = stream.producer().register()) {
            return producer.produce(new Shipped(orderId));
        }
    }

    private static Code codeOf(Runnable call) {
        SqlStreamsException failure = catchThrowableOfType(call::run, SqlStreamsException.class);
        assertThat(failure).as("expected a SqlStreamsException").isNotNull();
        assertThat(failure.getMessage()).startsWith(failure.code().id() + " ");
        return failure.code();
    }

    // ------------------------------------------------------------------------------------------------------------
    // Before anything was installed

    @Test
    void readsOnAFreshSchemaAnswerEmptyAndCreateNothing() throws SQLException {
        String schema = database.extraSchema("fresh");
        EngineClient client = clientOn(schema, true);
        SchemaProbe probe = new SchemaProbe(database, schema);
        StreamHandle<Shipped> stream = client.stream("verbs.fresh", Shipped.class);

        assertThat(stream.get()).isEmpty();
        assertThat(client.streams()).isEmpty();
        assertThat(codeOf(stream::consumers)).isEqualTo(Code.SQL0005);
        assertThat(codeOf(() -> stream.rename("verbs.fresh.renamed"))).isEqualTo(Code.SQL0005);
        assertThat(codeOf(() -> stream.destroy(DestroyOptions.forced()))).isEqualTo(Code.SQL0005);
        assertThat(codeOf(() -> stream.checkDestroy(DestroyOptions.forced()))).isEqualTo(Code.SQL0005);
        assertThat(codeOf(() -> stream.producer().register())).isEqualTo(Code.SQL0005);
        assertThat(probe.schemaExists()).as("no verb but register creates the schema").isFalse();

        // the schema exists but holds nothing: still empty answers, still nothing created
        database.execute("CREATE SCHEMA " + schema);
        assertThat(stream.get()).isEmpty();
        assertThat(client.streams()).isEmpty();
        assertThat(codeOf(stream::consumers)).isEqualTo(Code.SQL0005);
        assertThat(probe.relations()).isEmpty();

        // and once registered, present
        Stream registered = stream.register();
        assertThat(stream.get()).contains(registered);
        assertThat(client.streams()).containsExactly(registered);
    }

    // ------------------------------------------------------------------------------------------------------------
    // get and streams

    @Test
    void getIsEmptyForAnUnknownStreamAndPresentAfterRegister() {
        client.stream("verbs.get.other", Shipped.class).register();
        StreamHandle<Shipped> stream = client.stream("verbs.get", Shipped.class);
        assertThat(stream.get()).isEmpty();

        Stream registered = stream.register(StreamConfig.builder().partitionSize(64L).build());
        assertThat(stream.get()).contains(registered);
        assertThat(client.stream("verbs.get", Shipped.class).get()).as("another handle, same name").contains(registered);
        assertThat(newClient().stream("verbs.get", Shipped.class).get()).as("another client").contains(registered);
        assertThat(client.stream("verbs.get.unknown", Shipped.class).get()).isEmpty();
        assertThat(client.stream("VERBS.GET", Shipped.class).get()).as("names are case-sensitive").isEmpty();
        // get is the comma-ok read: a name that cannot exist is simply absent
        assertThat(client.stream("not a name", Shipped.class).get()).isEmpty();
        assertThat(client.stream(null, Shipped.class).get()).isEmpty();
    }

    @Test
    void streamsListsEveryStreamOrderedByName() throws SQLException {
        String schema = database.extraSchema("list");
        EngineClient client = clientOn(schema, true);
        List<Stream> registered = new ArrayList<>();
        for (String name : List.of("list.c", "list.a", "list.b.z", "list.b", "list.aa")) {
            registered.add(client.stream(name, Shipped.class).register());
        }
        List<Stream> streams = client.streams();
        assertThat(streams).extracting(Stream::name)
                .containsExactly("list.a", "list.aa", "list.b", "list.b.z", "list.c");
        assertThat(streams).containsExactlyInAnyOrderElementsOf(registered);
        for (Stream stream : streams) {
            assertThat(client.stream(stream.name(), Shipped.class).get()).contains(stream);
        }
        // another client sees the same
        assertThat(clientOn(schema, false).streams()).isEqualTo(streams);
    }

    // ------------------------------------------------------------------------------------------------------------
    // rename

    @Test
    void renameKeepsTheIdAndTheData() throws SQLException {
        StreamHandle<Shipped> old = client.stream("verbs.rename.old", Shipped.class);
        Stream original = old.register(StreamConfig.builder().partitionSize(10L).build());
        long id = original.id();
        assertThat(produceOne(old, "o-1").id()).isEqualTo(1);
        List<List<String>> workersBefore = probe.table("SELECT id, name, metadata::text, target_instances FROM "
                + database.schema() + ".worker_config WHERE stream_id = ? ORDER BY name", id);

        try (Producer<Shipped> registeredBefore = old.producer().register()) {
            Stream renamed = old.rename("verbs.rename.new");

            assertThat(renamed.id()).isEqualTo(id);
            assertThat(renamed.name()).isEqualTo("verbs.rename.new");
            assertThat(renamed.partitionSize()).isEqualTo(10L);
            assertThat(renamed.createdAt()).isEqualTo(original.createdAt());
            assertThat(renamed.updatedAt()).isAfterOrEqualTo(original.updatedAt());
            assertThat(old.name()).as("the old handle keeps its old name").isEqualTo("verbs.rename.old");
            assertThat(old.get()).isEmpty();
            StreamHandle<Shipped> renamedHandle = client.stream("verbs.rename.new", Shipped.class);
            assertThat(renamedHandle.get()).contains(renamed);
            assertThat(client.streams()).extracting(Stream::name).contains("verbs.rename.new")
                    .doesNotContain("verbs.rename.old");

            // the data stayed where it was
            assertThat(probe.rowCount("message_log_" + id)).isEqualTo(1);
            assertThat(probe.text("SELECT payload->>'orderId' FROM " + database.schema() + ".message_log_" + id
                    + " WHERE id = 1")).isEqualTo("o-1");
            assertThat(probe.familyTablesPresent(id)).containsExactlyInAnyOrderElementsOf(
                    SchemaProbe.registeredFamilyTables(id));
            assertThat(probe.table("SELECT id, name, metadata::text, target_instances FROM " + database.schema()
                    + ".worker_config WHERE stream_id = ? ORDER BY name", id)).isEqualTo(workersBefore);

            // a snapshot records the rename
            List<List<String>> snapshots = probe.table("SELECT name, partition_size, declared_by FROM "
                    + database.schema() + ".stream_config_log WHERE stream_id = ? ORDER BY id", id);
            assertThat(snapshots).hasSize(2);
            assertThat(snapshots.get(0).subList(0, 2)).containsExactly("verbs.rename.old", "10");
            assertThat(snapshots.get(1).subList(0, 2)).containsExactly("verbs.rename.new", "10");
            assertThat(snapshots.get(1).get(2)).isNotBlank();

            // the new name's producer writes to the same id, and so does the producer registered before
            assertThat(produceOne(renamedHandle, "o-2").id()).isEqualTo(2);
            assertThat(registeredBefore.produce(new Shipped("o-3")).id()).isEqualTo(3);
            assertThat(probe.strings("SELECT payload->>'orderId' FROM " + database.schema() + ".message_log_" + id
                    + " ORDER BY id")).containsExactly("o-1", "o-2", "o-3");

            // the old name is free again: registering it makes a different stream
            Stream reused = old.register();
            assertThat(reused.id()).isNotEqualTo(id);
            assertThat(probe.rowCount("message_log_" + reused.id())).isZero();
        }
    }

    @Test
    void renameToTheSameNameChangesNothing() throws SQLException {
        StreamHandle<Shipped> stream = client.stream("verbs.rename.same", Shipped.class);
        Stream original = stream.register();
        assertThat(stream.rename("verbs.rename.same")).isEqualTo(original);
        assertThat(stream.get()).contains(original);
        assertThat(probe.rowCount("stream_config_log", "stream_id = ?", original.id())).isEqualTo(1);
    }

    @Test
    void renameToATakenNameIsRefused() throws SQLException {
        StreamHandle<Shipped> first = client.stream("verbs.rename.first", Shipped.class);
        StreamHandle<Shipped> second = client.stream("verbs.rename.second", Shipped.class);
        Stream one = first.register();
        Stream two = second.register();

        SqlStreamsException taken = catchThrowableOfType(() -> first.rename("verbs.rename.second"),
                SqlStreamsException.class);
        assertThat(taken.code()).isEqualTo(Code.SQL0007);
        assertThat(taken.getMessage()).contains("verbs.rename.second");

        assertThat(first.get()).contains(one);
        assertThat(second.get()).contains(two);
        assertThat(probe.rowCount("stream_config_log", "stream_id = ?", one.id())).isEqualTo(1);
        assertThat(probe.rowCount("stream_config_log", "stream_id = ?", two.id())).isEqualTo(1);
    }

    @Test
    void renameOfAnUnknownStreamIsRefused() throws SQLException {
        client.stream("verbs.rename.installed", Shipped.class).register();
        long streams = probe.rowCount("stream_config");
        long logs = probe.rowCount("stream_config_log");

        SqlStreamsException missing = catchThrowableOfType(() -> client.stream("verbs.rename.ghost", Shipped.class)
                .rename("verbs.rename.ghost2"), SqlStreamsException.class);
        assertThat(missing.code()).isEqualTo(Code.SQL0005);
        assertThat(missing.getMessage()).contains("verbs.rename.ghost");
        assertThat(client.stream("verbs.rename.ghost2", Shipped.class).get()).isEmpty();
        assertThat(probe.rowCount("stream_config")).isEqualTo(streams);
        assertThat(probe.rowCount("stream_config_log")).isEqualTo(logs);
    }

    @Test
    void renameToAReservedOrInvalidNameIsRefused() throws SQLException {
        StreamHandle<Shipped> stream = client.stream("verbs.rename.guarded", Shipped.class);
        Stream original = stream.register();

        assertThat(codeOf(() -> stream.rename("__system.alerts"))).isEqualTo(Code.SQL0009);
        assertThat(codeOf(() -> stream.rename("__system.mine"))).isEqualTo(Code.SQL0009);
        for (String invalid : new String[] {"bad name", "", null, "a;drop table x", "-lead", "z".repeat(201)}) {
            assertThatThrownBy(() -> stream.rename(invalid)).as("rename to %s", invalid)
                    .isInstanceOfSatisfying(InvalidNameException.class, e -> {
                        assertThat(e.code()).isEqualTo(Code.SQL0109);
                        assertThat(e.name()).isEqualTo(invalid);
                    });
        }
        assertThat(stream.get()).contains(original);
        assertThat(probe.rowCount("stream_config_log", "stream_id = ?", original.id())).isEqualTo(1);
        // an invalid current name is refused too, rather than looked up
        assertThatThrownBy(() -> client.stream("bad name", Shipped.class).rename("verbs.rename.ok"))
                .isInstanceOfSatisfying(InvalidNameException.class, e -> assertThat(e.code()).isEqualTo(Code.SQL0109));
    }

    // ------------------------------------------------------------------------------------------------------------
    // destroy

    @Test
    void destroyNeedsAllowDestroy() throws SQLException {
        EngineClient guarded = clientOn(database.schema(), false);
        StreamHandle<Shipped> stream = guarded.stream("verbs.destroy.disabled", Shipped.class);
        Stream registered = stream.register();
        produceOne(stream, "o-1");
        List<String> before = probe.relations();

        SqlStreamsException disabled = catchThrowableOfType(() -> stream.destroy(DestroyOptions.forced()),
                SqlStreamsException.class);
        assertThat(disabled.code()).isEqualTo(Code.SQL0008);
        assertThat(codeOf(() -> stream.destroy(DestroyOptions.guarded()))).isEqualTo(Code.SQL0008);
        assertThat(codeOf(() -> stream.checkDestroy(DestroyOptions.forced()))).isEqualTo(Code.SQL0008);
        assertThat(codeOf(() -> guarded.stream("verbs.destroy.never.registered", Shipped.class)
                .destroy(DestroyOptions.forced()))).as("the gate comes before the lookup").isEqualTo(Code.SQL0008);

        assertThat(stream.get()).contains(registered);
        assertThat(probe.relations()).isEqualTo(before);
        assertThat(probe.rowCount("message_log_" + registered.id())).isEqualTo(1);
    }

    @Test
    void destroyWithoutForceRefusesAStreamThatHoldsMessages() throws SQLException {
        StreamHandle<Shipped> stream = client.stream("verbs.destroy.notempty", Shipped.class);
        Stream registered = stream.register();
        produceOne(stream, "o-1");
        List<String> before = probe.relations();
        long logs = probe.rowCount("stream_config_log", "stream_id = ?", registered.id());

        SqlStreamsException notEmpty = catchThrowableOfType(() -> stream.destroy(DestroyOptions.guarded()),
                SqlStreamsException.class);
        assertThat(notEmpty.code()).isEqualTo(Code.SQL0006);
        assertThat(notEmpty.getMessage()).contains("verbs.destroy.notempty");
        assertThat(codeOf(() -> stream.destroy(null))).as("null options are not force").isEqualTo(Code.SQL0006);
        assertThat(codeOf(() -> stream.checkDestroy(DestroyOptions.guarded()))).isEqualTo(Code.SQL0006);
        stream.checkDestroy(DestroyOptions.forced());

        assertThat(stream.get()).contains(registered);
        assertThat(probe.relations()).as("nothing dropped").isEqualTo(before);
        assertThat(probe.rowCount("message_log_" + registered.id())).isEqualTo(1);
        assertThat(probe.rowCount("worker_config", "stream_id = ?", registered.id())).isEqualTo(2);
        assertThat(probe.rowCount("stream_config_log", "stream_id = ?", registered.id())).isEqualTo(logs);
        assertThat(produceOne(stream, "o-2").id()).as("still usable").isEqualTo(2);
    }

    @Test
    void forcedDestroyDropsTheFamilyTheSequenceTheRowAndItsWorkers() throws SQLException {
        client.stream("verbs.destroy.bystander", Shipped.class).register();
        StreamHandle<Shipped> stream = client.stream("verbs.destroy.forced", Shipped.class);
        Stream registered = stream.register(StreamConfig.builder().partitionSize(2L).build());
        long id = registered.id();
        List<Long> ids = new ArrayList<>();
        try (Producer<Shipped> producer = stream.producer().register()) {
            for (int i = 1; i <= 5; i++) {
                ids.add(producer.produce(new Shipped("o-" + i)).id());
            }
        }
        // ids may skip a value where an insert had to create its partition first; they only grow
        assertThat(ids).isSorted().doesNotHaveDuplicates();
        assertThat(probe.rowCount("message_log_" + id)).isEqualTo(5);
        assertThat(probe.partitions("message_log_" + id)).as("five ids of a size-2 log span at least 3 partitions")
                .hasSizeGreaterThanOrEqualTo(3);
        assertThat(probe.familyRelations(id)).contains("message_log_" + id + "_id_seq");
        List<String> bystanders = probe.relations().stream()
                .filter(relation -> !SchemaProbe.familyRelation(id).matcher(relation).matches()).toList();
        assertThat(probe.rowCount("migration_log", "stream_id = ?", id)).isEqualTo(1);

        stream.destroy(DestroyOptions.forced());

        assertThat(probe.familyRelations(id)).as("every family relation is gone").isEmpty();
        assertThat(probe.sequenceCache("message_log_" + id + "_id_seq")).isEmpty();
        assertThat(probe.relations()).as("nothing else was dropped").containsExactlyInAnyOrderElementsOf(bystanders);
        assertThat(probe.rowCount("stream_config", "id = ?", id)).isZero();
        assertThat(probe.rowCount("worker_config", "stream_id = ?", id)).isZero();
        assertThat(probe.rowCount("stream_config_log", "stream_id = ?", id)).isZero();
        assertThat(probe.rowCount("migration_log", "stream_id = ?", id)).isZero();
        assertThat(stream.get()).isEmpty();
        assertThat(client.streams()).extracting(Stream::name).doesNotContain("verbs.destroy.forced")
                .contains("verbs.destroy.bystander");
        assertThat(client.stream("verbs.destroy.bystander", Shipped.class).get()).isPresent();
        assertThat(codeOf(() -> stream.destroy(DestroyOptions.forced()))).as("destroyed twice").isEqualTo(Code.SQL0005);

        // the name can be registered again: a new id and an empty family
        Stream again = stream.register(StreamConfig.builder().partitionSize(2L).build());
        assertThat(again.id()).isNotEqualTo(id);
        assertThat(probe.rowCount("message_log_" + again.id())).isZero();
        assertThat(produceOne(stream, "fresh").id()).isEqualTo(1);
    }

    @Test
    void destroyOfAnEmptyStreamNeedsNoForce() throws SQLException {
        StreamHandle<Shipped> stream = client.stream("verbs.destroy.empty", Shipped.class);
        long id = stream.register().id();

        stream.destroy(DestroyOptions.guarded());

        assertThat(stream.get()).isEmpty();
        assertThat(probe.familyRelations(id)).isEmpty();
        assertThat(probe.rowCount("stream_config", "id = ?", id)).isZero();
        assertThat(probe.rowCount("worker_config", "stream_id = ?", id)).isZero();

        // null options behave like guarded
        long other = client.stream("verbs.destroy.empty.null", Shipped.class).register().id();
        client.stream("verbs.destroy.empty.null", Shipped.class).destroy(null);
        assertThat(probe.familyRelations(other)).isEmpty();
    }

    @Test
    void destroyOfAnUnknownStreamIsRefused() throws SQLException {
        client.stream("verbs.destroy.installed", Shipped.class).register();
        List<String> before = probe.relations();

        assertThat(codeOf(() -> client.stream("verbs.destroy.ghost", Shipped.class).destroy(DestroyOptions.forced())))
                .isEqualTo(Code.SQL0005);
        assertThat(codeOf(() -> client.stream("verbs.destroy.ghost", Shipped.class).destroy(DestroyOptions.guarded())))
                .isEqualTo(Code.SQL0005);
        assertThatThrownBy(() -> client.stream("bad name", Shipped.class).destroy(DestroyOptions.forced()))
                .isInstanceOfSatisfying(InvalidNameException.class, e -> assertThat(e.code()).isEqualTo(Code.SQL0109));
        assertThat(probe.relations()).isEqualTo(before);
    }

    // ------------------------------------------------------------------------------------------------------------
    // consumers

    @Test
    void consumersOfAFreshStreamAreEmptyAndOfAnUnknownStreamRefused() {
        StreamHandle<Shipped> stream = client.stream("verbs.consumers", Shipped.class);
        stream.register();
        assertThat(stream.consumers()).isEmpty();

        SqlStreamsException unknown = catchThrowableOfType(() -> client.stream("verbs.consumers.ghost", Shipped.class)
                .consumers(), SqlStreamsException.class);
        assertThat(unknown.code()).isEqualTo(Code.SQL0005);
        assertThat(unknown.getMessage()).contains("verbs.consumers.ghost");
        assertThatThrownBy(() -> client.stream("bad name", Shipped.class).consumers())
                .isInstanceOfSatisfying(InvalidNameException.class, e -> assertThat(e.code()).isEqualTo(Code.SQL0109));
    }
}
