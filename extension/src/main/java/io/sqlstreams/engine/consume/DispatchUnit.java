package io.sqlstreams.engine.consume;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.sqlstreams.Concurrency;
import io.sqlstreams.engine.query.KeyLeaseQueries.WantedKey;

/**
 * What the dispatcher runs under one permit: a single message, or a key chain, every exclusive or ordered
 * message of one key in a range, run one after another under the key lease the range took for it, or, for a
 * transactional handler, a whole range. A compacted message stays single: it takes its own lease, which re-checks
 * that it is still its key's head.
 */
record DispatchUnit(ClaimedRange range, List<Delivery> deliveries, Kind kind) {

    enum Kind {
        SINGLE,
        /** one key's messages in id order; a failure leaves the rest of the chain to run */
        EXCLUSIVE_CHAIN,
        /** one key's messages in id order; after a failure, delay or deferral the rest is deferred unrun */
        ORDERED_CHAIN,
        /** every message of a range, for a transactional handler's one transaction ({@link RangeTransactions}) */
        RANGE
    }

    /** The whole of a range as one unit: its deliveries without an outcome yet (the gate may have deferred some). */
    static DispatchUnit whole(ClaimedRange range) {
        return new DispatchUnit(range, range.deliveries().stream().filter(delivery -> range.outcomeOf(delivery) == null)
                .toList(), Kind.RANGE);
    }

    /** The units of a range in id order of their first message. */
    static List<DispatchUnit> of(ClaimedRange range) {
        Map<String, List<Delivery>> chains = new HashMap<>();
        for (Delivery delivery : range.deliveries()) {
            if (chained(delivery)) {
                chains.computeIfAbsent(delivery.messageKey(), key -> new ArrayList<>()).add(delivery);
            }
        }
        List<DispatchUnit> units = new ArrayList<>();
        for (Delivery delivery : range.deliveries()) {
            if (!chained(delivery)) {
                units.add(new DispatchUnit(range, List.of(delivery), Kind.SINGLE));
                continue;
            }
            List<Delivery> chain = chains.get(delivery.messageKey());
            if (chain.get(0) == delivery) {
                units.add(new DispatchUnit(range, List.copyOf(chain), chainKind(chain)));
            }
        }
        return units;
    }

    private static boolean chained(Delivery delivery) {
        return KeyLeases.needed(delivery) && delivery.compactionRank() == null;
    }

    /** A chain with any ordered message is ordered throughout: its followers never overtake a failure. */
    private static Kind chainKind(List<Delivery> chain) {
        boolean ordered = chain.stream().anyMatch(d -> d.options().concurrency() == Concurrency.ORDERED);
        return ordered ? Kind.ORDERED_CHAIN : Kind.EXCLUSIVE_CHAIN;
    }

    boolean chain() {
        return kind == Kind.EXCLUSIVE_CHAIN || kind == Kind.ORDERED_CHAIN;
    }

    String messageKey() {
        return deliveries.get(0).messageKey();
    }

    WantedKey keyRequest() {
        return new WantedKey(messageKey(), deliveries.get(0).messageId(), kind == Kind.ORDERED_CHAIN, true);
    }
}
