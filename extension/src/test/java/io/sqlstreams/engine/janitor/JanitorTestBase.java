package io.sqlstreams.engine.janitor;

import java.sql.SQLException;
import java.time.Duration;
import java.util.stream.IntStream;

import io.sqlstreams.ProduceItem;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.engine.produce.ProduceTestBase;

/**
 * What the maintenance tests share: streams of {@link Entry} messages, filled in one batch, whose rows are made
 * old by moving their {@code created_at} back, never by waiting.
 */
abstract class JanitorTestBase extends ProduceTestBase {
    static final Duration HOUR = Duration.ofHours(1);

    @SchemaVersion(1)
    public record Entry(int n) {
    }

    Stream stream(String name, StreamConfig.Builder config) {
        return client.stream(name, Entry.class).register(config.build());
    }

    /** Partitions of 10 ids and a retention of an hour. */
    static StreamConfig.Builder tenPerPartition() {
        return StreamConfig.builder().partitionSize(10L).retentionTtl(HOUR);
    }

    /**
     * Produces messages 1 to {@code count} in one batch. The partitions they need exist beforehand, so no insert
     * fails over a missing one, which would spend ids.
     */
    Producer<Entry> produce(Stream stream, int count) throws SQLException {
        createPartitionsThrough(stream, count);
        Producer<Entry> producer = producer(stream.name(), Entry.class);
        producer.produceBatch(IntStream.rangeClosed(1, count).mapToObj(n -> ProduceItem.of(new Entry(n))).toList());
        return producer;
    }

    /** Creates the partitions from 1 up to the one holding id {@code lastId}, those missing. */
    void createPartitionsThrough(Stream stream, long lastId) throws SQLException {
        for (long partition = 1; partition * stream.partitionSize() <= lastId; partition++) {
            database.execute("CREATE TABLE IF NOT EXISTS " + database.schema() + ".message_log_" + stream.id() + "_"
                    + partition + " PARTITION OF " + database.schema() + ".message_log_" + stream.id()
                    + " FOR VALUES FROM (" + partition * stream.partitionSize() + ") TO ("
                    + (partition + 1) * stream.partitionSize() + ")");
        }
    }

    /** Moves the creation time of messages {@code first} to {@code last} back by {@code age}. */
    void age(Stream stream, long first, long last, Duration age) throws SQLException {
        sql.update("UPDATE {s}.message_log_" + stream.id() + " SET created_at = now() - ? * interval '1 second'"
                + " WHERE id BETWEEN ? AND ?", age.toSeconds(), first, last);
    }
}
