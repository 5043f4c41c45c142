package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.Deliveries.compacted;
import static io.sqlstreams.engine.consume.Deliveries.delivery;
import static io.sqlstreams.engine.consume.Deliveries.exclusive;
import static io.sqlstreams.engine.consume.Deliveries.ordered;
import static io.sqlstreams.engine.consume.Deliveries.parallel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.sqlstreams.Concurrency;
import io.sqlstreams.engine.query.KeyLeaseQueries.WantedKey;

/** How a claimed range is cut into what the dispatcher runs under one permit each. */
class DispatchUnitTest {

    @Test
    void eachKeysExclusiveMessagesFormOneChainInIdOrderAtThePlaceOfItsFirstMessage() {
        Delivery a1 = exclusive(1, "a");
        Delivery free = parallel(2);
        Delivery b3 = exclusive(3, "b");
        Delivery a4 = exclusive(4, "a");
        Delivery b5 = exclusive(5, "b");

        List<DispatchUnit> units = DispatchUnit.of(range(a1, free, b3, a4, b5));

        assertThat(units).extracting(DispatchUnit::deliveries, DispatchUnit::kind).containsExactly(
                tuple(List.of(a1, a4), DispatchUnit.Kind.EXCLUSIVE_CHAIN),
                tuple(List.of(free), DispatchUnit.Kind.SINGLE),
                tuple(List.of(b3, b5), DispatchUnit.Kind.EXCLUSIVE_CHAIN));
    }

    @Test
    void oneOrderedMessageMakesItsWholeChainOrdered() {
        List<DispatchUnit> units = DispatchUnit.of(range(exclusive(1, "k"), ordered(2, "k"), exclusive(3, "k")));

        assertThat(units).singleElement().extracting(DispatchUnit::kind).isEqualTo(DispatchUnit.Kind.ORDERED_CHAIN);
    }

    @Test
    void messagesThatTakeNoKeyLeaseOrACompactedOneStaySingle() {
        Delivery keyless = delivery(1, null, Concurrency.EXCLUSIVE, null);
        Delivery parallelWithKey = delivery(2, "k", Concurrency.PARALLEL, null);
        Delivery unresolvedPolicy = delivery(3, "k", null, null);
        Delivery head = compacted(4, "k", 7);
        Delivery chained = exclusive(5, "k");

        List<DispatchUnit> units = DispatchUnit.of(range(keyless, parallelWithKey, unresolvedPolicy, head, chained));

        assertThat(units).extracting(DispatchUnit::kind).containsExactly(DispatchUnit.Kind.SINGLE,
                DispatchUnit.Kind.SINGLE, DispatchUnit.Kind.SINGLE, DispatchUnit.Kind.SINGLE,
                DispatchUnit.Kind.EXCLUSIVE_CHAIN);
        assertThat(units).extracting(DispatchUnit::chain).containsExactly(false, false, false, false, true);
    }

    @Test
    void aChainAsksForItsKeyFromItsFirstMessageAndOnlyAnOrderedOneWaitsBehindExceptionRows() {
        List<DispatchUnit> units = DispatchUnit.of(range(exclusive(3, "x"), ordered(4, "y"), exclusive(5, "x")));

        assertThat(units).extracting(DispatchUnit::keyRequest).containsExactly(
                new WantedKey("x", 3, false, true),
                new WantedKey("y", 4, true, true));
    }

    private static ClaimedRange range(Delivery... deliveries) {
        return new ClaimedRange("token", 0, 10, Instant.parse("2026-01-01T00:00:00Z"), Duration.ofMinutes(1), List.of(deliveries));
    }
}
