package io.sqlstreams.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

import io.sqlstreams.Concurrency;

/**
 * Everything the chaos lab decides at random, from one seed: what each message is (unkeyed, exclusive or ordered,
 * which key, whether its handler fails) and when which fault strikes. The message plan is a pure function of the
 * seed and the message's sequence number, so the consumer processes derive it from the payload alone.
 *
 * @param seed the seed, printed in the report so a run can be repeated
 */
record ChaosPlan(long seed) {
    static final int EXCLUSIVE_KEYS = 8;
    static final int ORDERED_KEYS = 8;
    /** Per mille of messages whose handler always fails: they must end dead-lettered. */
    static final int POISON_PER_MILLE = 2;
    /** Per mille of messages whose handler fails on the first run and then succeeds. */
    static final int FAIL_ONCE_PER_MILLE = 20;
    /** The longest a held producer keeps its transaction open after producing. */
    static final Duration LONGEST_HELD = Duration.ofSeconds(5);
    /** The faults fall within this share of the window: none in the first tenth, none in the last 15 %. */
    static final double FAULTS_FROM = 0.10;
    static final double FAULTS_UNTIL = 0.85;

    /** What the handler of one message does. */
    enum Behaviour {
        SUCCEEDS, FAILS_ONCE, POISON;

        /** Whether a handler run with {@code attempt} (from 1) fails. */
        boolean fails(int attempt) {
            return this == POISON || this == FAILS_ONCE && attempt == 1;
        }
    }

    /**
     * One produced message.
     *
     * @param seq       its sequence number in the run (the payload's id)
     * @param policy    its concurrency policy; {@link Concurrency#PARALLEL} for an unkeyed message
     * @param key       its message key; null when unkeyed
     * @param behaviour what its handler does
     */
    record Message(long seq, Concurrency policy, String key, Behaviour behaviour) {
    }

    /**
     * How a held producer transaction of message {@code seq} goes ({@link HeldProducers}).
     *
     * @param form how it produces and ends
     * @param hold how long it stays open after producing (prepared: after PREPARE TRANSACTION)
     */
    record Held(HeldForm form, Duration hold) {
    }

    enum FaultKind {
        KILL("SIGKILL a consumer"), STORM("terminate the consumers' backends"), RESTART("restart PostgreSQL");

        private final String description;

        FaultKind(String description) {
            this.description = description;
        }

        String description() {
            return description;
        }
    }

    /**
     * One fault of the schedule.
     *
     * @param at   when, from the start of the window
     * @param kind what
     * @param slot for a kill: which consumer slot (its current process is killed and replaced)
     */
    record Fault(Duration at, FaultKind kind, int slot) {
    }

    Message message(long seq) {
        SplittableRandom random = new SplittableRandom(seed ^ (seq * 0x9E3779B97F4A7C15L));
        int mix = random.nextInt(100);
        int fate = random.nextInt(1000);
        Behaviour behaviour = fate < POISON_PER_MILLE ? Behaviour.POISON
                : fate < POISON_PER_MILLE + FAIL_ONCE_PER_MILLE ? Behaviour.FAILS_ONCE : Behaviour.SUCCEEDS;
        if (mix < 40) {
            return new Message(seq, Concurrency.PARALLEL, null, behaviour);
        }
        if (mix < 70) {
            return new Message(seq, Concurrency.EXCLUSIVE, "e" + random.nextInt(EXCLUSIVE_KEYS), behaviour);
        }
        return new Message(seq, Concurrency.ORDERED, "o" + random.nextInt(ORDERED_KEYS), behaviour);
    }

    /**
     * How the held producer transaction of message {@code seq} goes: a quarter commit, a tenth roll back, a quarter
     * produce in a savepoint (released, or rolled back to it: no message), the rest prepare (two in three of them
     * commit), unless {@code prepared} is false; each is held 0–5 s.
     */
    Held held(long seq, boolean prepared) {
        SplittableRandom random = new SplittableRandom(~seed ^ (seq * 0x9E3779B97F4A7C15L));
        int mix = random.nextInt(prepared ? 100 : 60);
        HeldForm form = mix < 25 ? HeldForm.COMMIT : mix < 35 ? HeldForm.ROLLBACK
                : mix < 50 ? HeldForm.SAVEPOINT_RELEASED : mix < 60 ? HeldForm.SAVEPOINT_ROLLED_BACK
                : mix < 87 ? HeldForm.PREPARED_COMMIT : HeldForm.PREPARED_ROLLBACK;
        return new Held(form, Duration.ofMillis(random.nextLong(LONGEST_HELD.toMillis() + 1)));
    }

    /**
     * The fault schedule: {@code kills} kills of random slots among {@code consumers}, {@code storms} storms and
     * {@code restarts} restarts, each at a random moment of the middle of {@code window}, in time order.
     */
    List<Fault> faults(Duration window, int consumers, int kills, int storms, int restarts) {
        Random random = new Random(seed);
        List<FaultKind> kinds = new ArrayList<>();
        kinds.addAll(Collections.nCopies(kills, FaultKind.KILL));
        kinds.addAll(Collections.nCopies(storms, FaultKind.STORM));
        kinds.addAll(Collections.nCopies(restarts, FaultKind.RESTART));
        long from = (long) (window.toMillis() * FAULTS_FROM);
        long span = Math.max(1, (long) (window.toMillis() * FAULTS_UNTIL) - from);
        List<Fault> faults = new ArrayList<>();
        for (FaultKind kind : kinds) {
            faults.add(new Fault(Duration.ofMillis(from + (long) (random.nextDouble() * span)), kind,
                    kind == FaultKind.KILL ? random.nextInt(consumers) : -1));
        }
        faults.sort(Comparator.comparing(Fault::at));
        return List.copyOf(faults);
    }
}
