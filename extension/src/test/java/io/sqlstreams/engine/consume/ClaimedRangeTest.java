package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.Deliveries.parallel;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The bookkeeping of one leased range (10, 20] holding deliveries 11, 13 and 14: ids 12 and 15..20 were filtered
 * out and count as resolved.
 */
class ClaimedRangeTest {
    private static final DeliveryOutcome SUCCESS = new DeliveryOutcome.Success();

    private final Delivery first = parallel(11);
    private final Delivery second = parallel(13);
    private final Delivery third = parallel(14);
    private final ClaimedRange range = range(List.of(first, second, third));

    @Test
    void nothingIsResolvedBeforeTheFirstOutcome() {
        assertThat(range.resolvedThrough()).isEqualTo(10);
        assertThat(range.resolvedPrefix()).isEmpty();
        assertThat(range.complete()).isFalse();
    }

    @Test
    void anOutcomeAfterAGapResolvesNothingUntilTheGapCloses() {
        assertThat(range.record(third, SUCCESS)).isFalse();
        assertThat(range.resolvedThrough()).isEqualTo(10);
        assertThat(range.resolvedPrefix()).isEmpty();

        assertThat(range.record(first, SUCCESS)).isFalse();
        assertThat(range.resolvedThrough()).as("11 resolved, 12 filtered out, 13 open").isEqualTo(11);
        assertThat(range.resolvedPrefix()).containsExactly(new ClaimedRange.Resolved(first, SUCCESS));

        assertThat(range.record(second, SUCCESS)).as("the last outcome the range waited for").isTrue();
        assertThat(range.resolvedThrough()).as("the filtered-out tail 15..20 counts as resolved").isEqualTo(20);
        assertThat(range.complete()).isTrue();
    }

    @Test
    void theFilteredOutIdsBetweenTwoResolvedDeliveriesCountAsResolved() {
        range.record(first, SUCCESS);
        range.record(second, SUCCESS);

        assertThat(range.resolvedThrough()).isEqualTo(13);
    }

    @Test
    void theResolvedPrefixIsInIdOrderWhateverOrderTheOutcomesCameIn() {
        DeliveryOutcome dead = new DeliveryOutcome.Dead("no");
        DeliveryOutcome retry = new DeliveryOutcome.Retry("again");
        range.record(third, dead);
        range.record(second, retry);
        range.record(first, SUCCESS);

        assertThat(range.resolvedPrefix()).containsExactly(
                new ClaimedRange.Resolved(first, SUCCESS),
                new ClaimedRange.Resolved(second, retry),
                new ClaimedRange.Resolved(third, dead));
    }

    @Test
    void aSecondOutcomeOfOneDeliveryReplacesTheFirstAndDoesNotCompleteTheRange() {
        DeliveryOutcome deferred = new DeliveryOutcome.Deferred("busy");
        range.record(first, SUCCESS);
        range.record(second, SUCCESS);

        assertThat(range.record(first, deferred)).isFalse();
        assertThat(range.complete()).isFalse();
        assertThat(range.resolvedPrefix()).contains(new ClaimedRange.Resolved(first, deferred));
    }

    @Test
    void aStaleRangeStartsNothingMoreAndItsLastOutcomeDoesNotReportCompletion() {
        assertThat(range.start()).isTrue();
        range.markStale();

        assertThat(range.stale()).isTrue();
        assertThat(range.start()).isFalse();
        range.record(first, SUCCESS);
        range.record(second, SUCCESS);
        assertThat(range.record(third, SUCCESS)).as("a stale range waits for its reclaim, not its commit").isFalse();
        assertThat(range.complete()).isTrue();
        assertThat(range.resolvedThrough()).isEqualTo(20);
    }

    @Test
    void neverStartedHoldsUntilADeliveryStartsAndSurvivesARefusedStart() {
        assertThat(range.neverStarted()).isTrue();
        range.markStale();
        range.start();
        assertThat(range.neverStarted()).as("a start refused because the range is stale").isTrue();

        ClaimedRange fresh = range(List.of(first));
        fresh.start();
        assertThat(fresh.neverStarted()).isFalse();
    }

    @Test
    void keyLeasesHeldSumsTheLeasesTakenAndGivenBack() {
        range.keyLeasesChanged(3);
        range.keyLeasesChanged(-2);
        range.keyLeasesChanged(1);

        assertThat(range.keyLeasesHeld()).isEqualTo(2);
    }

    @Test
    void aRangeWhoseIdsWereAllFilteredOutIsResolvedThroughItsHighEnd() {
        ClaimedRange empty = range(List.of());

        assertThat(empty.complete()).isTrue();
        assertThat(empty.resolvedThrough()).isEqualTo(20);
        assertThat(empty.resolvedPrefix()).isEmpty();
    }

    @Test
    void theRangeKeepsItsOwnCopyOfTheDeliveries() {
        List<Delivery> claimed = new ArrayList<>(List.of(first));
        ClaimedRange copy = range(claimed);
        claimed.add(second);

        assertThat(copy.deliveries()).containsExactly(first);
        assertThat(copy.record(first, SUCCESS)).isTrue();
    }

    private static ClaimedRange range(List<Delivery> deliveries) {
        return new ClaimedRange("token", 10, 20, Instant.parse("2026-01-01T00:00:00Z"), Duration.ofMinutes(1), deliveries);
    }
}
