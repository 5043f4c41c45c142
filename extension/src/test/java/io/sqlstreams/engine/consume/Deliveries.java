package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.time.Instant;

import io.sqlstreams.Concurrency;
import io.sqlstreams.MessageOptions;

/** Deliveries built in memory for the unit tests of the dispatch core, each with a 30 s timeout. */
final class Deliveries {
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private Deliveries() {
    }

    static Delivery parallel(long id) {
        return delivery(id, null, Concurrency.PARALLEL, null);
    }

    static Delivery exclusive(long id, String key) {
        return delivery(id, key, Concurrency.EXCLUSIVE, null);
    }

    static Delivery ordered(long id, String key) {
        return delivery(id, key, Concurrency.ORDERED, null);
    }

    static Delivery compacted(long id, String key, long rank) {
        return delivery(id, key, Concurrency.EXCLUSIVE, rank);
    }

    static Delivery delivery(long id, String key, Concurrency policy, Long compactionRank) {
        return new Delivery(id, "route." + id, key, compactionRank, "{\"n\":" + id + "}", null,
                Instant.parse("2026-01-01T00:00:00Z"), new MessageOptions(policy, TIMEOUT, null, null), 1, 0,
                Delivery.RunRecords.UNRECORDED);
    }
}
