package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.Deliveries.exclusive;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.consume.KeyGrant.KeyState;
import io.sqlstreams.engine.query.KeyLeaseQueries.WantedKey;
import io.sqlstreams.testing.ManualScheduler;
import io.sqlstreams.testing.SettableClock;

/**
 * The gate between a claimed range's key chains and the dispatcher, with its retries on a {@link ManualScheduler}
 * and the key leases scripted. A chain's messages run under a 30 s timeout, a 5 s grace and a 2 s record margin:
 * with the gate's 1 s dispatch slack a chain needs 38 s of the range's lease left to be asked for.
 */
class KeyChainGateTest {
    private static final Duration GRACE = Duration.ofSeconds(5);
    private static final Duration RECORD_MARGIN = Duration.ofSeconds(2);
    private static final Duration NEEDED = Deliveries.TIMEOUT.plus(GRACE).plus(RECORD_MARGIN).plusSeconds(1);
    private static final Duration LEASE = Duration.ofSeconds(60);
    private static final String NO_TIME_LEFT = "its key stayed busy until too little of the range's lease was left"
            + " to run it";

    private final SettableClock clock = SettableClock.standing();
    private final ManualScheduler retries = new ManualScheduler(clock);
    private final ScriptedKeys keys = new ScriptedKeys();
    private final RecordingOutlet outlet = new RecordingOutlet();
    private final KeyChainGate gate = new KeyChainGate(keys, clock, GRACE, RECORD_MARGIN, retries, outlet);
    /** range r1: a chain of key a, then one of key b */
    private final ClaimedRange twoKeys = range("r1", LEASE, exclusive(1, "a"), exclusive(2, "b"));
    private final List<DispatchUnit> twoChains = DispatchUnit.of(twoKeys);

    @Test
    void chainsWhoseKeysAreFreeAreAdmittedAtOnceInOneAskUnderTheRangesToken() {
        ClaimedRange range = range("r1", LEASE, exclusive(1, "a"), exclusive(2, "b"), exclusive(3, "a"));
        List<DispatchUnit> chains = DispatchUnit.of(range);

        assertThat(gate.admit(range, chains)).isEqualTo(chains);

        assertThat(keys.calls).containsExactly(new Ask(List.of("a", "b"), List.of(), "r1",
                LEASE.plus(RECORD_MARGIN)));
        assertThat(range.keyLeasesHeld()).isEqualTo(2);
        assertThat(outlet.admitted).isEmpty();
        assertThat(outlet.refused).isEmpty();
        assertThat(retries.pending()).as("nothing waits, so nothing is retried").isZero();
    }

    @Test
    void aChainWhoseKeyIsBusyWaitsAndGoesToTheOutletOnceARetryFindsItFree() {
        keys.states.put("b", KeyState.BUSY);

        assertThat(gate.admit(twoKeys, twoChains)).containsExactly(twoChains.get(0));
        assertThat(retries.nextDelay()).isEqualTo(KeyChainGate.RETRY);

        retries.advance(KeyChainGate.RETRY);
        assertThat(keys.calls).last().isEqualTo(new Ask(List.of("b"), List.of(), "r1",
                LEASE.minus(KeyChainGate.RETRY).plus(RECORD_MARGIN)));
        assertThat(outlet.admitted).isEmpty();
        assertThat(retries.pending()).as("still busy: asked again later").isOne();

        keys.states.put("b", KeyState.ACQUIRED);
        retries.advance(KeyChainGate.RETRY);

        assertThat(outlet.admitted).containsExactly(twoChains.get(1));
        assertThat(outlet.refused).isEmpty();
        assertThat(twoKeys.keyLeasesHeld()).isEqualTo(2);
        assertThat(retries.pending()).isZero();
    }

    @Test
    void aChainBehindAnExceptionRowIsRefusedAtOnceWithoutWaiting() {
        keys.states.put("b", KeyState.AFTER_EXCEPTION);

        assertThat(gate.admit(twoKeys, twoChains)).containsExactly(twoChains.get(0));

        assertThat(outlet.refused).containsExactly(tuple(twoChains.get(1),
                "an earlier message of the key waits on the exception path"));
        assertThat(twoKeys.keyLeasesHeld()).isOne();
        assertThat(retries.pending()).isZero();
    }

    @Test
    void aChainIsAskedForOnlyWhileTheLeaseLeavesItsTimeoutGraceAndMarginsToRunIt() {
        ClaimedRange justEnough = range("enough", NEEDED, exclusive(1, "a"));
        ClaimedRange tooShort = range("short", NEEDED.minusMillis(1), exclusive(1, "a"));
        List<DispatchUnit> refusable = DispatchUnit.of(tooShort);

        assertThat(gate.admit(justEnough, DispatchUnit.of(justEnough))).hasSize(1);
        assertThat(gate.admit(tooShort, refusable)).isEmpty();

        assertThat(outlet.refused).containsExactly(tuple(refusable.get(0), NO_TIME_LEFT));
        assertThat(keys.calls).extracting(Ask::token).as("the hopeless chain is not even asked for")
                .containsExactly("enough");
    }

    @Test
    void aWaitingChainIsRefusedOnceTooLittleOfTheLeaseIsLeft() {
        keys.states.put("a", KeyState.BUSY);
        ClaimedRange range = range("r1", LEASE, exclusive(1, "a"));
        List<DispatchUnit> chains = DispatchUnit.of(range);
        gate.admit(range, chains);

        clock.advance(LEASE.minus(NEEDED));
        retries.runDue();
        assertThat(outlet.refused).as("exactly the time it needs is left").isEmpty();
        assertThat(keys.calls).hasSize(2);

        clock.advance(Duration.ofMillis(1));
        retries.advance(KeyChainGate.RETRY);

        assertThat(outlet.refused).containsExactly(tuple(chains.get(0), NO_TIME_LEFT));
        assertThat(keys.calls).hasSize(2);
        assertThat(retries.pending()).isZero();
        assertThat(gate.close()).isEmpty();
    }

    @Test
    void theKeysOfFinishedChainsOfAWaitingRangeAreGivenBackWithTheNextAsk() {
        keys.states.put("b", KeyState.BUSY);
        gate.admit(twoKeys, twoChains);

        gate.finished(twoChains.get(0));
        retries.advance(KeyChainGate.RETRY);
        retries.advance(KeyChainGate.RETRY);

        assertThat(keys.calls).extracting(Ask::finished).containsExactly(List.of(), List.of("a"), List.of());
        assertThat(twoKeys.keyLeasesHeld()).as("a's lease given back, b's not taken yet").isZero();
        assertThat(keys.takenOver).isEmpty();
    }

    @Test
    void aFinishedKeyWhoseLeaseWasGoneIsReportedTakenOver() {
        keys.states.put("b", KeyState.BUSY);
        keys.releasedOfFinished = 0;
        gate.admit(twoKeys, twoChains);

        gate.finished(twoChains.get(0));
        retries.advance(KeyChainGate.RETRY);

        assertThat(keys.takenOver).containsExactly(tuple(twoKeys, 1L));
    }

    @Test
    void aFinishedChainOfARangeThatWaitsForNothingKeepsItsKeyForTheCommit() {
        ClaimedRange range = range("r1", LEASE, exclusive(1, "a"));
        List<DispatchUnit> chains = DispatchUnit.of(range);
        gate.admit(range, chains);

        gate.finished(chains.get(0));
        gate.nudge();

        assertThat(retries.pending()).isZero();
        assertThat(keys.calls).hasSize(1);
        assertThat(range.keyLeasesHeld()).isOne();
    }

    @Test
    void retriesNeverPileUpHoweverManyRangesWaitOrNudgesCome() {
        keys.states.put("a", KeyState.BUSY);
        ClaimedRange first = range("r1", LEASE, exclusive(1, "a"));
        ClaimedRange second = range("r2", LEASE, exclusive(5, "a"));
        gate.admit(first, DispatchUnit.of(first));
        gate.admit(second, DispatchUnit.of(second));
        assertThat(retries.pending()).isOne();
        gate.nudge();
        gate.nudge();

        assertThat(retries.pending()).isOne();
        retries.runDue();

        assertThat(keys.calls).extracting(Ask::token).containsExactly("r1", "r2", "r1", "r2");
        assertThat(retries.pending()).isOne();
        assertThat(retries.nextDelay()).isEqualTo(KeyChainGate.RETRY);
    }

    @Test
    void aNudgeAsksForAWaitingKeyAtOnceInsteadOfAtTheNextRetry() {
        keys.states.put("a", KeyState.BUSY);
        ClaimedRange range = range("r1", LEASE, exclusive(1, "a"));
        gate.admit(range, DispatchUnit.of(range));
        keys.states.put("a", KeyState.ACQUIRED);

        gate.nudge();
        retries.runDue();

        assertThat(outlet.admitted).hasSize(1);
        assertThat(retries.pending()).isZero();
    }

    @Test
    void aStaleRangesWaitingChainsLeaveRefusedUnaskedSoTheirQueueRoomGoesBack() {
        keys.states.put("a", KeyState.BUSY);
        ClaimedRange range = range("r1", LEASE, exclusive(1, "a"));
        List<DispatchUnit> chains = DispatchUnit.of(range);
        gate.admit(range, chains);

        range.markStale();
        retries.advance(KeyChainGate.RETRY);

        assertThat(keys.calls).as("a lost range's keys are not asked for again").hasSize(1);
        assertThat(outlet.admitted).isEmpty();
        assertThat(outlet.refused).containsExactly(tuple(chains.get(0), "its range's lease was lost"));
        assertThat(retries.pending()).isZero();
        assertThat(gate.close()).isEmpty();
    }

    @Test
    void anAskThatFailsLeavesTheChainsWaitingForTheNextRetry() {
        keys.failure = new SqlStreamsException(Code.SQL0110, "PostgreSQL is restarting");

        assertThat(gate.admit(twoKeys, twoChains)).isEmpty();
        assertThat(outlet.refused).isEmpty();
        assertThat(twoKeys.keyLeasesHeld()).isZero();

        keys.failure = null;
        retries.advance(KeyChainGate.RETRY);

        assertThat(outlet.admitted).isEqualTo(twoChains);
        assertThat(twoKeys.keyLeasesHeld()).isEqualTo(2);
    }

    @Test
    void closeStopsTheRetriesAndHandsBackTheChainsThatNeverRan() {
        keys.states.put("b", KeyState.BUSY);
        keys.states.put("c", KeyState.BUSY);
        ClaimedRange range = range("r1", LEASE, exclusive(1, "a"), exclusive(2, "b"), exclusive(3, "c"));
        List<DispatchUnit> chains = DispatchUnit.of(range);
        gate.admit(range, chains);

        assertThat(gate.close()).containsExactly(chains.get(1), chains.get(2));

        assertThat(retries.isShutdown()).isTrue();
        assertThat(retries.pending()).isZero();
        ClaimedRange late = range("r2", LEASE, exclusive(9, "b"));
        assertThat(gate.admit(late, DispatchUnit.of(late))).as("a range claimed while stopping").isEmpty();
        assertThat(outlet.admitted).isEmpty();
    }

    private ClaimedRange range(String token, Duration leaseLeft, Delivery... deliveries) {
        return new ClaimedRange(token, 0, 100, clock.instant(), leaseLeft, List.of(deliveries));
    }

    @Test
    void aWholeRangeHoldsNoneOfItsKeysWhileOneIsBusyAndIsReadyOnceAllAreHeld() {
        KeyChainGate whole = new KeyChainGate(keys, clock, GRACE, RECORD_MARGIN, retries, outlet, true);
        keys.states.put("b", KeyState.BUSY);

        assertThat(whole.admitWhole(twoKeys, twoChains)).as("b is busy: the range waits").isFalse();

        assertThat(keys.calls).extracting(Ask::keys, Ask::finished).containsExactly(
                tuple(List.of("a", "b"), List.of()),
                tuple(List.of(), List.of("a")));
        assertThat(twoKeys.keyLeasesHeld()).as("a given back at once: no range holds a key while it waits").isZero();
        assertThat(outlet.admitted).isEmpty();

        keys.states.put("b", KeyState.ACQUIRED);
        retries.advance(KeyChainGate.RETRY);

        assertThat(keys.calls).last().extracting(Ask::keys).isEqualTo(List.of("a", "b"));
        assertThat(outlet.ready).containsExactly(twoKeys);
        assertThat(outlet.admitted).as("chains are not handed out one by one").isEmpty();
        assertThat(twoKeys.keyLeasesHeld()).isEqualTo(2);
        assertThat(retries.pending()).isZero();
    }

    @Test
    void aWholeRangeWhoseChainIsBehindAnExceptionRowRunsAtOnceWithThatChainDeferred() {
        KeyChainGate whole = new KeyChainGate(keys, clock, GRACE, RECORD_MARGIN, retries, outlet, true);
        keys.states.put("b", KeyState.AFTER_EXCEPTION);

        assertThat(whole.admitWhole(twoKeys, twoChains)).isTrue();

        assertThat(outlet.refused).containsExactly(tuple(twoChains.get(1),
                "an earlier message of the key waits on the exception path"));
        assertThat(twoKeys.keyLeasesHeld()).isOne();
        assertThat(retries.pending()).isZero();
    }

    /** One {@code takeAll} call as the gate made it. */
    private record Ask(List<String> keys, List<String> finished, String token, Duration duration) {
    }

    /** Key leases that answer from {@link #states} (free unless set) and record every ask. */
    private static final class ScriptedKeys implements KeyChainGate.RangeKeys {
        final Map<String, KeyState> states = new HashMap<>();
        final List<Ask> calls = new ArrayList<>();
        final List<Tuple> takenOver = new ArrayList<>();
        SqlStreamsException failure;
        /** how many of the finished keys' leases were still there; all when null */
        Integer releasedOfFinished;

        @Override
        public KeyGrant takeAll(List<WantedKey> requests, List<String> finished, String token, Duration duration) {
            List<String> asked = requests.stream().map(WantedKey::messageKey).toList();
            calls.add(new Ask(asked, List.copyOf(finished), token, duration));
            if (failure != null) {
                throw failure;
            }
            List<KeyState> answers = asked.stream().map(key -> states.getOrDefault(key, KeyState.ACQUIRED)).toList();
            return new KeyGrant(answers, releasedOfFinished == null ? finished.size() : releasedOfFinished);
        }

        @Override
        public void warnTakenOver(ClaimedRange range, long lost) {
            takenOver.add(tuple(range, lost));
        }
    }

    /** Where the gate sent the chains it admitted or refused after they waited. */
    private static final class RecordingOutlet implements KeyChainGate.Outlet {
        final List<DispatchUnit> admitted = new ArrayList<>();
        final List<Tuple> refused = new ArrayList<>();
        final List<ClaimedRange> ready = new ArrayList<>();

        @Override
        public void admitted(DispatchUnit chain) {
            admitted.add(chain);
        }

        @Override
        public void refused(DispatchUnit chain, String reason) {
            refused.add(tuple(chain, reason));
        }

        @Override
        public void rangeReady(ClaimedRange range) {
            ready.add(range);
        }
    }
}
