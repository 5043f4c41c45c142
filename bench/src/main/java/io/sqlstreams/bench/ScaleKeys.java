package io.sqlstreams.bench;

import io.sqlstreams.Concurrency;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.ProduceOptions;

/**
 * The realistic shape's message keys (BENCHMARKS.md #9): message {@code i} carries key {@code k<i mod 2,000>}, and
 * a key's messages are all ordered (even keys) or all exclusive (odd keys), so half the keys are of each policy
 * and every range of the log holds both.
 */
final class ScaleKeys {
    static final int KEYS = 2_000;

    private ScaleKeys() {
    }

    /** The key's number: {@code k17} is 17. */
    static int number(String key) {
        return Integer.parseInt(key.substring(1));
    }

    static Concurrency policy(int key) {
        return key % 2 == 0 ? Concurrency.ORDERED : Concurrency.EXCLUSIVE;
    }

    /** The produce options of message {@code i}: its key and its key's policy. */
    static ProduceOptions options(long i) {
        int key = (int) (i % KEYS);
        return ProduceOptions.builder().messageKey("k" + key)
                .message(MessageOptions.builder().concurrency(policy(key)).build()).build();
    }
}
