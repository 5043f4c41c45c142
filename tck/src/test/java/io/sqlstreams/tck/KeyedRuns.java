package io.sqlstreams.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.tck.deployment.Payment;

/**
 * Keyed payments for two deployments of one group, and what their journalled runs must show: per key, successes in
 * id order, and no two runs overlapping.
 */
final class KeyedRuns {
    static final int MESSAGES = 200;
    private static final int KEYS = 8;
    private static final int PER_BATCH = 20;

    private KeyedRuns() {
    }

    /** {@link #MESSAGES} payments over {@link #KEYS} keys, order {@code <prefix(n)>customer-<key>-order-<n>}. */
    static void produce(StreamHandle<Payment> stream, IntFunction<String> prefix) {
        List<ProduceItem<Payment>> items = new ArrayList<>();
        for (int n = 1; n <= MESSAGES; n++) {
            String key = "customer-" + n % KEYS;
            items.add(ProduceItem.of(new Payment(prefix.apply(n) + key + "-order-" + n),
                    ProduceOptions.builder().messageKey(key).build()));
        }
        try (Producer<Payment> producer = stream.producer().register()) {
            for (int from = 0; from < MESSAGES; from += PER_BATCH) {
                producer.produceBatch(items.subList(from, from + PER_BATCH));
            }
        }
    }

    static Map<String, List<JournalRows.Entry>> byKey(List<JournalRows.Entry> runs) {
        return runs.stream().collect(Collectors.groupingBy(JournalRows.Entry::key));
    }

    static void assertSuccessesInIdOrder(Map<String, List<JournalRows.Entry>> byKey) {
        byKey.forEach((key, ofKey) -> assertThat(ofKey.stream().filter(JournalRows.Entry::succeeded)
                .map(JournalRows.Entry::messageId).toList()).as("successes of key %s", key).isSorted());
    }

    static void assertNoOverlaps(Map<String, List<JournalRows.Entry>> byKey) {
        byKey.forEach((key, ofKey) -> {
            List<JournalRows.Entry> inOrder = ofKey.stream()
                    .sorted(Comparator.comparing(JournalRows.Entry::startedAt)).toList();
            for (int i = 1; i < inOrder.size(); i++) {
                assertThat(inOrder.get(i).startedAt()).as("run %s of key %s starts after %s ended", inOrder.get(i),
                        key, inOrder.get(i - 1)).isAfterOrEqualTo(inOrder.get(i - 1).ranAt());
            }
        });
    }
}
