package io.sqlstreams.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import io.sqlstreams.Concurrency;

/** The seeded plan: the same seed gives the same messages and faults, in the proportions the lab promises. */
class ChaosPlanTest {

    @Test
    void aMessageIsAFunctionOfTheSeedAndItsSequenceNumber() {
        ChaosPlan plan = new ChaosPlan(42);
        List<ChaosPlan.Message> first = LongStream.range(0, 1_000).mapToObj(plan::message).toList();

        assertThat(LongStream.range(0, 1_000).mapToObj(new ChaosPlan(42)::message).toList()).isEqualTo(first);
        assertThat(LongStream.range(0, 1_000).mapToObj(new ChaosPlan(43)::message).toList()).isNotEqualTo(first);
    }

    @Test
    void theMixHasEveryPolicyAndBehaviourAndKeysOnlyWhereAPolicyNeedsThem() {
        ChaosPlan plan = new ChaosPlan(7);
        List<ChaosPlan.Message> messages = LongStream.range(0, 20_000).mapToObj(plan::message).toList();
        Map<Concurrency, Long> policies = messages.stream()
                .collect(Collectors.groupingBy(ChaosPlan.Message::policy, Collectors.counting()));
        Map<ChaosPlan.Behaviour, Long> behaviours = messages.stream()
                .collect(Collectors.groupingBy(ChaosPlan.Message::behaviour, Collectors.counting()));

        assertThat(policies.get(Concurrency.PARALLEL)).isBetween(7_500L, 8_500L);
        assertThat(policies.get(Concurrency.EXCLUSIVE)).isBetween(5_500L, 6_500L);
        assertThat(policies.get(Concurrency.ORDERED)).isBetween(5_500L, 6_500L);
        assertThat(behaviours.get(ChaosPlan.Behaviour.POISON)).isBetween(20L, 60L);
        assertThat(behaviours.get(ChaosPlan.Behaviour.FAILS_ONCE)).isBetween(300L, 500L);
        assertThat(messages).allSatisfy(m -> assertThat(m.key() != null).isEqualTo(m.policy().holdsKey()));
        assertThat(messages.stream().map(ChaosPlan.Message::key).distinct().filter(k -> k != null).count())
                .isEqualTo(ChaosPlan.EXCLUSIVE_KEYS + ChaosPlan.ORDERED_KEYS);
    }

    @Test
    void aBehaviourFailsTheRunsItPromises() {
        assertThat(ChaosPlan.Behaviour.SUCCEEDS.fails(1)).isFalse();
        assertThat(ChaosPlan.Behaviour.FAILS_ONCE.fails(1)).isTrue();
        assertThat(ChaosPlan.Behaviour.FAILS_ONCE.fails(2)).isFalse();
        assertThat(ChaosPlan.Behaviour.POISON.fails(ChaosGroup.MAX_RETRIES)).isTrue();
    }

    @Test
    void aHeldTransactionIsAFunctionOfTheSeedTakesEveryFormAndPreparesOnlyWhereAllowed() {
        ChaosPlan plan = new ChaosPlan(11);
        List<ChaosPlan.Held> held = LongStream.range(0, 2_000).mapToObj(seq -> plan.held(seq, true)).toList();
        List<ChaosPlan.Held> withoutPrepared = LongStream.range(0, 2_000).mapToObj(seq -> plan.held(seq, false))
                .toList();

        assertThat(LongStream.range(0, 2_000).mapToObj(seq -> new ChaosPlan(11).held(seq, true)).toList())
                .isEqualTo(held);
        assertThat(held.stream().map(ChaosPlan.Held::form).distinct()).containsExactlyInAnyOrder(HeldForm.values());
        assertThat(held).allSatisfy(one -> assertThat(one.hold()).isBetween(Duration.ZERO, ChaosPlan.LONGEST_HELD));
        assertThat(held.stream().mapToLong(one -> one.hold().toMillis()).max().orElseThrow()).isGreaterThan(4_500);
        assertThat(withoutPrepared.stream().map(ChaosPlan.Held::form).distinct()).containsExactlyInAnyOrder(
                HeldForm.COMMIT, HeldForm.ROLLBACK, HeldForm.SAVEPOINT_RELEASED, HeldForm.SAVEPOINT_ROLLED_BACK);
    }

    @Test
    void theFaultScheduleHasExactlyTheCountsAskedForInTheMiddleOfTheWindowInTimeOrder() {
        Duration window = Duration.ofSeconds(20);
        List<ChaosPlan.Fault> faults = new ChaosPlan(99).faults(window, 3, 5, 2, 1);
        Map<ChaosPlan.FaultKind, Long> kinds = faults.stream()
                .collect(Collectors.groupingBy(ChaosPlan.Fault::kind, Collectors.counting()));

        assertThat(kinds).containsEntry(ChaosPlan.FaultKind.KILL, 5L).containsEntry(ChaosPlan.FaultKind.STORM, 2L)
                .containsEntry(ChaosPlan.FaultKind.RESTART, 1L);
        assertThat(faults).isSortedAccordingTo((a, b) -> a.at().compareTo(b.at()));
        assertThat(faults).allSatisfy(fault -> assertThat(fault.at())
                .isBetween(Duration.ofSeconds(2), Duration.ofSeconds(17)));
        assertThat(faults).filteredOn(fault -> fault.kind() == ChaosPlan.FaultKind.KILL)
                .allSatisfy(fault -> assertThat(fault.slot()).isBetween(0, 2));
        assertThat(new ChaosPlan(99).faults(window, 3, 5, 2, 1)).isEqualTo(faults);
        assertThat(new ChaosPlan(99).faults(window, 3, 0, 0, 0)).isEmpty();
        assertThat(faults).hasSize(8);
    }
}
