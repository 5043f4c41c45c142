package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.binding.BindingDeclaration;
import io.sqlstreams.engine.binding.BindingPatterns;
import io.sqlstreams.engine.loop.Loop;

/**
 * The claim loop: first puts the group's binding set in place, then keeps the local queue filled with leased
 * ranges, taking room for a batch before each claim. A range's key chains go through the {@link KeyChainGate};
 * everything else, and the chains it admits at once, goes to the queue; for a transactional handler the whole range
 * goes as one unit once the gate holds the keys of all its chains. Caught up, it waits ClaimPollRate or until
 * a commit on its stream is announced ({@link Loop#wake()}). While the group is paused it claims nothing.
 */
final class ClaimLoop implements Loop.Body {
    private static final Duration FENCE_RETRY = Duration.ofMillis(10);

    private final Engine engine;
    private final RegisteredGroup group;
    private final ConsumeOptions options;
    private final List<String> bindings;
    private final GroupConfigCache config;
    private final WorkerInstances instances;
    private final FreshClaimer claimer;
    private final LocalQueue queue;
    private final KeyChainGate gate;
    private final RangeCommitter committer;
    private final boolean wholeRanges;
    private final ClaimSize size;
    private boolean bindingsInPlace;

    ClaimLoop(Engine engine, RegisteredGroup group, ConsumeOptions options, ConsumerConfig declared,
              GroupConfigCache config, WorkerInstances instances, FreshClaimer claimer, LocalQueue queue,
              KeyChainGate gate, RangeCommitter committer, boolean wholeRanges) {
        this.engine = engine;
        this.group = group;
        this.options = options;
        this.bindings = BindingPatterns.normalize(declared.bindings() == null ? List.of() : declared.bindings());
        this.config = config;
        this.instances = instances;
        this.claimer = claimer;
        this.queue = queue;
        this.gate = gate;
        this.committer = committer;
        this.wholeRanges = wholeRanges;
        this.size = ClaimSize.of(options, wholeRanges, engine.environment().clock());
    }

    @Override
    public void pass(Loop loop) throws InterruptedException {
        if (bindingsInPlace) {
            claim(loop);
        } else {
            bindingsInPlace = declareBindings(loop);
        }
    }

    /**
     * Declares the group's binding set again; true once it is in place. A changed set waits while another
     * instance of the group is live (a rolling deploy converges once the old instances stop): this pass then
     * waits BindingRetryInterval and returns false.
     */
    private boolean declareBindings(Loop loop) throws InterruptedException {
        BindingDeclaration.Result result;
        try {
            result = engine.database().inTransaction("declaring the bindings of " + group.describe(),
                    tx -> engine.bindings().declare(tx, group.streamId(), group.groupId(), group.describe(),
                            bindings, instances.ids()));
        } catch (SqlStreamsException failure) {
            SessionFailure.rethrowIfEnding(failure);
            result = BindingDeclaration.Result.WAITING;
        }
        if (result != BindingDeclaration.Result.WAITING) {
            return true;
        }
        engine.diagnostics().event(Code.SQL0118, "binding set " + bindings + " of "
                + group.describe() + " waits for the group's live instances to stop; retrying in "
                + options.resolvedBindingRetryInterval().toMillis() + " ms");
        loop.pause(options.resolvedBindingRetryInterval());
        return false;
    }

    private void claim(Loop loop) throws InterruptedException {
        Duration pollRate = options.resolvedClaimPollRate();
        if (config.paused()) {
            loop.pause(pollRate);
            return;
        }
        queue.resize(size.queueRoom(options.resolvedQueueSize()));
        int want = queue.takeRoom(size.next(), pollRate);
        if (want == 0) {
            return;
        }
        FreshClaimer.Poll poll;
        try {
            ConsumerConfig current = config.current();
            poll = claimer.poll(want, current, options.rangeLeaseDuration(current));
        } catch (SqlStreamsException claimFailure) {
            queue.giveBack(want);
            SessionFailure.rethrowIfEnding(claimFailure);
            engine.diagnostics().event(Code.SQL0119, "claim of " + group.describe()
                    + " failed; retrying in " + pollRate.toMillis() + " ms: " + claimFailure.getMessage());
            loop.pause(pollRate);
            return;
        }
        size.claimed(want, poll.range() == null ? 0 : Math.toIntExact(poll.range().high() - poll.range().low()));
        if (poll.range() == null) {
            queue.giveBack(want);
            if (poll.caughtUp()) {
                loop.pauseUnlessWoken(pollRate);
            } else {
                loop.pause(FENCE_RETRY);
            }
            return;
        }
        enqueue(poll.range(), want);
    }

    /**
     * Queues a claimed range's deliveries: whole, for a transactional handler, or unit by unit; key chains the gate
     * does not admit at once wait there (for a transactional handler, the whole range waits).
     */
    private void enqueue(ClaimedRange range, int taken) {
        queue.settle(taken, range.deliveries().size());
        committer.opened(range);
        if (range.deliveries().isEmpty()) {
            return;
        }
        List<DispatchUnit> units = DispatchUnit.of(range);
        List<DispatchUnit> chains = units.stream().filter(DispatchUnit::chain).toList();
        if (wholeRanges) {
            if (chains.isEmpty() || gate.admitWhole(range, chains)) {
                queue.add(DispatchUnit.whole(range));
            }
            return;
        }
        Set<DispatchUnit> admitted = Collections.newSetFromMap(new IdentityHashMap<>());
        if (!chains.isEmpty()) {
            admitted.addAll(gate.admit(range, chains));
        }
        for (DispatchUnit unit : units) {
            if (!unit.chain() || admitted.contains(unit)) {
                queue.add(unit);
            }
        }
    }
}
