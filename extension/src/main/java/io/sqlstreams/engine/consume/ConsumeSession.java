package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.SessionCounters;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.Engine;
import io.sqlstreams.engine.binding.BindingDeclaration;
import io.sqlstreams.engine.binding.BindingPatterns;
import io.sqlstreams.engine.codec.IdempotencyKeys;

/**
 * One consume session: a claim loop that keeps the local queue filled with leased ranges, a dispatch loop that
 * starts handlers under MessageConcurrency permits, a recorder that commits finished ranges, the exception
 * path, and upkeep (liveness heartbeats, declaration refresh, cursor advancement). Closing it stops claiming,
 * waits for in-flight handlers up to the shutdown timeout, settles every open range, releases its liveness
 * rows and logs SQL0041 with its counters.
 */
final class ConsumeSession<T> implements ConsumerSession {
    private static final Duration FENCE_RETRY = Duration.ofMillis(10);
    private static final Duration CURSOR_ADVANCE_PERIOD = Duration.ofSeconds(1);
    private static final Duration DISPATCH_POLL = Duration.ofMillis(50);

    private final Engine engine;
    private final RegisteredGroup group;
    private final ConsumeOptions options;
    private final ConsumerConfig declared;
    private final String id = IdempotencyKeys.mintV7().toString();
    private final SessionCounterSet counters = new SessionCounterSet();
    private final GroupConfigCache config;
    private final FreshClaimer claimer;
    private final RangeRecorder recorder;
    private final ExceptionConsumer<T> exceptions;
    private final HandlerRunner<T> handlers;
    private final KeyedRunner<T> keyed;
    private final KeyLeases keyLeases;
    private final KeyChainGate gate;
    private final WorkerInstances instances;
    private final CursorAdvancer advancer;
    private final ScheduledExecutorService timer;
    private final ScheduledExecutorService upkeep;
    private final ExecutorService recorderThread;
    private final BlockingQueue<DispatchUnit> queue = new LinkedBlockingQueue<>();
    private final Semaphore room;
    private final Semaphore permits;
    private final AtomicInteger overdraft = new AtomicInteger();
    private final Set<ClaimedRange> openRanges = ConcurrentHashMap.newKeySet();
    private final Queue<ClaimedRange> failedCommits = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final CountDownLatch wake = new CountDownLatch(1);
    private final CountDownLatch started = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Consumer<ConsumeSession<T>> onStopped;
    private final Instant startedAt;
    private volatile Instant lastHeartbeat;
    private List<Thread> loops = List.of();

    ConsumeSession(Engine engine, RegisteredGroup group, Class<T> payloadType, int schemaVersion,
                   MessageHandler<T> handler, ConsumeOptions options, ConsumerConfig declared,
                   ExecutorService handlerExecutor, Consumer<ConsumeSession<T>> onStopped) {
        this.engine = engine;
        this.group = group;
        this.options = options;
        this.declared = declared;
        this.onStopped = onStopped;
        this.config = new GroupConfigCache(engine, group, declared);
        ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(1, engine.environment().threadFactory());
        timers.setRemoveOnCancelPolicy(true);
        this.timer = timers;
        this.upkeep = Executors.newSingleThreadScheduledExecutor(engine.environment().threadFactory());
        this.recorderThread = Executors.newSingleThreadExecutor(engine.environment().threadFactory());
        RangeReader reader = new RangeReader(engine, group, schemaVersion);
        this.claimer = new FreshClaimer(engine, group, schemaVersion, reader, counters);

        this.handlers = new HandlerRunner<>(engine, group, payloadType, handler, handlerExecutor, timer,
                options.resolvedTimeoutGrace(), counters);
        this.keyLeases = new KeyLeases(engine, group);
        this.recorder = new RangeRecorder(engine, group, counters, keyLeases);
        this.keyed = new KeyedRunner<>(handlers, keyLeases, options.resolvedTimeoutGrace(),
                options.resolvedRecordMargin());
        this.gate = new KeyChainGate(keyLeases, engine.environment().clock(), options.resolvedTimeoutGrace(),
                options.resolvedRecordMargin(), Executors.newSingleThreadScheduledExecutor(
                        engine.environment().threadFactory()), new KeyChainGate.Outlet() {
                    @Override
                    public void admitted(DispatchUnit chain) {
                        queue.add(chain);
                    }

                    @Override
                    public void refused(DispatchUnit chain, String reason) {
                        deferUnrun(chain, reason);
                    }
                });
        this.exceptions = new ExceptionConsumer<>(engine, group, schemaVersion, reader, keyed, counters,
                this::advanceCursor);
        this.instances = new WorkerInstances(engine, group);
        this.advancer = new CursorAdvancer(engine, group);
        this.room = new Semaphore(options.resolvedQueueSize());
        this.permits = new Semaphore(options.resolvedMessageConcurrency());
        this.startedAt = engine.environment().clock().instant();
        this.lastHeartbeat = startedAt;
    }

    /** Claims liveness, starts every loop, and returns once the session runs. */
    void begin() {
        config.refresh();
        ConsumerConfig current = config.current();
        instances.claim(options.resolvedInstanceTtl());
        lastHeartbeat = engine.environment().clock().instant();
        engine.diagnostics().info("consumer starting: " + group.describe() + " session=" + id
                + " batch_limit=" + options.resolvedBatchLimit() + " queue_size=" + options.resolvedQueueSize()
                + " message_concurrency=" + options.resolvedMessageConcurrency()
                + " claim_poll_rate=" + options.resolvedClaimPollRate().toMillis() + "ms"
                + " range_lease=" + options.rangeLeaseDuration(current).toMillis() + "ms"
                + " shutdown_timeout=" + options.resolvedShutdownTimeout(current).toMillis() + "ms");
        Duration heartbeat = options.resolvedInstanceTtl().dividedBy(2);
        upkeep.scheduleWithFixedDelay(this::heartbeat, heartbeat.toNanos(), heartbeat.toNanos(), TimeUnit.NANOSECONDS);
        Duration refresh = options.resolvedConfigRefreshInterval();
        upkeep.scheduleWithFixedDelay(config::refresh, refresh.toNanos(), refresh.toNanos(), TimeUnit.NANOSECONDS);
        upkeep.scheduleWithFixedDelay(this::advanceCursor, 0, CURSOR_ADVANCE_PERIOD.toNanos(), TimeUnit.NANOSECONDS);
        loops = List.of(thread(this::claimLoop), thread(this::dispatchLoop), thread(this::exceptionLoop));
        loops.forEach(Thread::start);
        started.countDown();
    }

    private Thread thread(Runnable loop) {
        return engine.environment().threadFactory().newThread(() -> {
            try {
                loop.run();
            } catch (RuntimeException | Error fatal) {
                fail(fatal);
            }
        });
    }

    /**
     * Declares the group's binding set again and waits, retrying every BindingRetryInterval, until it is in
     * place: a changed set waits while another instance of the group is live (a rolling deploy converges once
     * the old instances stop). Returns false when the session stopped while waiting.
     */
    private boolean settleBindings() {
        List<String> patterns = BindingPatterns.normalize(declared.bindings() == null ? List.of() : declared.bindings());
        while (!stopping.get()) {
            BindingDeclaration.Result result;
            try {
                result = engine.database().inTransaction("declaring the bindings of " + group.describe(),
                        tx -> engine.bindings().declare(tx, group.streamId(), group.groupId(), group.describe(),
                                patterns, instances.ids()));
            } catch (SqlStreamsException failure) {
                if (isFatal(failure)) {
                    throw failure;
                }
                result = BindingDeclaration.Result.WAITING;
            }
            if (result != BindingDeclaration.Result.WAITING) {
                return true;
            }
            engine.diagnostics().logger().log(System.Logger.Level.WARNING, "binding set " + patterns + " of "
                    + group.describe() + " waits for the group's live instances to stop; retrying in "
                    + options.resolvedBindingRetryInterval().toMillis() + " ms");
            pause(options.resolvedBindingRetryInterval());
        }
        return false;
    }

    private void claimLoop() {
        int batch = options.resolvedBatchLimit();
        Duration pollRate = options.resolvedClaimPollRate();
        if (!settleBindings()) {
            return;
        }
        while (!stopping.get()) {
            int want = takeRoom(batch, pollRate);
            if (want == 0) {
                continue;
            }
            FreshClaimer.Poll poll;
            try {
                ConsumerConfig current = config.current();
                poll = claimer.poll(want, current, options.rangeLeaseDuration(current));
            } catch (SqlStreamsException claimFailure) {
                room.release(want);
                if (isFatal(claimFailure)) {
                    throw claimFailure;
                }
                engine.diagnostics().logger().log(System.Logger.Level.WARNING, "claim of " + group.describe()
                        + " failed; retrying in " + pollRate.toMillis() + " ms: " + claimFailure.getMessage());
                pause(pollRate);
                continue;
            }
            if (poll.range() == null) {
                room.release(want);
                pause(poll.caughtUp() ? pollRate : FENCE_RETRY);
                continue;
            }
            enqueue(poll.range(), want);
        }
    }

    /** Waits for room for a full batch, or a poll period and then takes whatever room there is. */
    private int takeRoom(int batch, Duration pollRate) {
        try {
            if (room.tryAcquire(batch, pollRate.toNanos(), TimeUnit.NANOSECONDS)) {
                return batch;
            }
        } catch (InterruptedException interrupted) {
            return 0;
        }
        return room.drainPermits();
    }

    /**
     * Queues a claimed range's deliveries. A reclaimed range keeps its original size, which may exceed this
     * session's queue: the shortfall is owed and paid back as the dispatcher takes deliveries.
     */
    private void enqueue(ClaimedRange range, int held) {
        int size = range.deliveries().size();
        if (size < held) {
            room.release(held - size);
        } else if (size > held) {
            int needed = size - held;
            int taken = room.drainPermits();
            if (taken > needed) {
                room.release(taken - needed);
            } else {
                overdraft.addAndGet(needed - taken);
            }
        }
        openRanges.add(range);
        if (size == 0) {
            recorderThread.execute(() -> commit(range));
            return;
        }
        List<DispatchUnit> units = DispatchUnit.of(range);
        List<DispatchUnit> chains = units.stream().filter(DispatchUnit::chain).toList();
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

    /** A chain the gate refused: its messages are deferred without running and their room given back. */
    private void deferUnrun(DispatchUnit chain, String reason) {
        for (Delivery delivery : chain.deliveries()) {
            returnRoom();
            record(chain.range(), delivery, new DeliveryOutcome.Deferred(reason));
        }
    }

    private void dispatchLoop() {
        Duration grace = options.resolvedTimeoutGrace();
        Duration recordMargin = options.resolvedRecordMargin();
        while (!stopping.get()) {
            DispatchUnit next;
            try {
                next = queue.poll(DISPATCH_POLL.toNanos(), TimeUnit.NANOSECONDS);
                if (next == null) {
                    continue;
                }
                next.deliveries().forEach(delivery -> returnRoom());
                if (next.range().stale()) {
                    continue;
                }
                permits.acquire();
            } catch (InterruptedException interrupted) {
                return;
            }
            if (stopping.get()) {
                permits.release();
                return;
            }
            dispatch(next, grace, recordMargin);
        }
    }

    private void returnRoom() {
        if (overdraft.getAndUpdate(owed -> owed > 0 ? owed - 1 : 0) == 0) {
            room.release();
        }
    }

    private void dispatch(DispatchUnit next, Duration grace, Duration recordMargin) {
        runUnit(next, 0, grace, recordMargin).whenComplete((done, failure) -> permits.release());
    }

    /**
     * Runs a unit from {@code index} on, message after message. In an ordered chain a message runs once the
     * previous one succeeded, went dead or was superseded; after a failure, delay or deferral the rest of the
     * chain is deferred without running. An exclusive chain runs every message whatever the previous outcome.
     */
    private CompletableFuture<Void> runUnit(DispatchUnit unit, int index, Duration grace, Duration recordMargin) {
        List<Delivery> chain = unit.deliveries();
        ClaimedRange range = unit.range();
        if (index == chain.size()) {
            if (unit.chain()) {
                gate.finished(unit);
            }
            return CompletableFuture.completedFuture(null);
        }
        Delivery delivery = chain.get(index);
        Duration needed = delivery.options().timeout().plus(grace).plus(recordMargin);
        Duration left = Duration.between(engine.environment().clock().instant(), range.leaseDeadline());
        if (left.compareTo(needed) < 0) {
            range.markStale();
            engine.diagnostics().event(Code.SQL0105, "queued message " + delivery.messageId() + " of " + group.describe()
                    + " has " + left.toMillis() + " ms of lease left but needs " + needed.toMillis()
                    + " ms; " + range.describe() + " waits for a reclaim");
            return CompletableFuture.completedFuture(null);
        }
        if (!range.start()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<DeliveryOutcome> run = unit.chain() ? handlers.run(delivery) : keyed.run(delivery);
        return run.thenCompose(outcome -> {
            record(range, delivery, outcome);
            if (unit.kind() != DispatchUnit.Kind.ORDERED_CHAIN || letsTheChainContinue(outcome)) {
                return runUnit(unit, index + 1, grace, recordMargin);
            }
            gate.finished(unit);
            for (Delivery follower : chain.subList(index + 1, chain.size())) {
                record(range, follower, new DeliveryOutcome.Deferred(
                        "an earlier message of the key in the same range did not succeed"));
            }
            return CompletableFuture.completedFuture(null);
        });
    }

    private static boolean letsTheChainContinue(DeliveryOutcome outcome) {
        return outcome instanceof DeliveryOutcome.Success || outcome instanceof DeliveryOutcome.Dead
                || outcome instanceof DeliveryOutcome.Superseded;
    }

    private void record(ClaimedRange range, Delivery delivery, DeliveryOutcome outcome) {
        try {
            if (range.record(delivery, outcome)) {
                recorderThread.execute(() -> commit(range));
            }
        } catch (RejectedExecutionException afterShutdown) {
            engine.diagnostics().logger().log(System.Logger.Level.WARNING, "a handler of " + group.describe()
                    + " finished after the session settled; " + range.describe() + " is reclaimed after its lease");
        }
    }

    private void commit(ClaimedRange range) {
        try {
            recorder.commit(range, config.current());
            openRanges.remove(range);
            gate.nudge();
        } catch (SqlStreamsException commitFailure) {
            failedCommits.add(range);
            engine.diagnostics().logger().log(System.Logger.Level.WARNING, "commit of " + range.describe() + " of "
                    + group.describe() + " failed; it is retried at shutdown or left to lease expiry: "
                    + commitFailure.getMessage());
        }
    }

    private void exceptionLoop() {
        Duration pollRate = options.resolvedClaimPollRate();
        while (!stopping.get()) {
            int claimed;
            try {
                ConsumerConfig current = config.current();
                claimed = exceptions.pass(options.resolvedBatchLimit(), current, options.rangeLeaseDuration(current),
                        options.resolvedTimeoutGrace(), options.resolvedRecordMargin(), stopping::get);
            } catch (InterruptedException interrupted) {
                return;
            } catch (SqlStreamsException passFailure) {
                if (isFatal(passFailure)) {
                    throw passFailure;
                }
                engine.diagnostics().logger().log(System.Logger.Level.WARNING, "exception pass of " + group.describe()
                        + " failed; retrying in " + pollRate.toMillis() + " ms: " + passFailure.getMessage());
                claimed = 0;
            }
            if (claimed == 0) {
                pause(pollRate);
            }
        }
    }

    private void heartbeat() {
        try {
            instances.renew(options.resolvedInstanceTtl());
            lastHeartbeat = engine.environment().clock().instant();
        } catch (SqlStreamsException lost) {
            if (lost.code() == Code.SQL0012 || lost.code() == Code.SQL0107) {
                fail(lost);
            }
        }
    }

    private void advanceCursor() {
        try {
            advancer.advance();
        } catch (SqlStreamsException advanceFailure) {
            engine.diagnostics().logger().log(System.Logger.Level.DEBUG, () -> "cursor advance of " + group.describe()
                    + " failed; next period retries: " + advanceFailure.getMessage());
        }
    }

    private static boolean isFatal(SqlStreamsException failure) {
        return failure.code() == Code.SQL0014 || failure.code() == Code.SQL0005 || failure.code() == Code.SQL0012
                || failure.code() == Code.SQL0107;
    }

    private void pause(Duration duration) {
        try {
            wake.await(duration.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** A loop failed for good: record why and stop the session from another thread. */
    private void fail(Throwable cause) {
        if (failure.compareAndSet(null, cause)) {
            engine.diagnostics().logger().log(System.Logger.Level.ERROR, "session " + id + " of " + group.describe()
                    + " failed and stops: " + cause);
            engine.environment().threadFactory().newThread(this::close).start();
        }
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public boolean awaitStarted(Duration timeout) throws InterruptedException {
        return started.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public boolean isRunning() {
        return stopped.getCount() > 0;
    }

    @Override
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    @Override
    public SessionCounters counters() {
        return counters.snapshot();
    }

    @Override
    public Instant lastHeartbeat() {
        return lastHeartbeat;
    }

    /** Waits until the session has stopped. */
    void awaitStopped() throws InterruptedException {
        stopped.await();
    }

    @Override
    public void close() {
        stop(options.resolvedShutdownTimeout(config.current()));
    }

    @Override
    public void stop(Duration timeout) {
        if (!stopping.compareAndSet(false, true)) {
            awaitStoppedUninterruptibly();
            return;
        }
        wake.countDown();
        Instant deadline = engine.environment().clock().instant().plus(timeout);
        try {
            joinLoops(deadline);
            gate.close().forEach(chain -> deferUnrun(chain, "the session stopped while the chain waited for its key"));
            drainInFlight(deadline, timeout);
            settle();
            upkeep.shutdownNow();
            advanceCursor();
        } finally {
            gate.close();
            upkeep.shutdownNow();
            timer.shutdownNow();
            instances.release();
            engine.diagnostics().event(Code.SQL0041, "consumer stopped: " + group.describe() + " session=" + id
                    + " duration_ms=" + Duration.between(startedAt, engine.environment().clock().instant()).toMillis()
                    + " " + counters.summary());
            stopped.countDown();
            onStopped.accept(this);
        }
    }

    private void joinLoops(Instant until) {
        for (Thread loop : loops) {
            if (loop == Thread.currentThread()) {
                continue;
            }
            try {
                Duration left = Duration.between(engine.environment().clock().instant(), until);
                loop.join(Math.max(1, left.toMillis()));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void drainInFlight(Instant deadline, Duration timeout) {
        int all = options.resolvedMessageConcurrency();
        Duration left = Duration.between(engine.environment().clock().instant(), deadline);
        try {
            if (permits.tryAcquire(all, Math.max(0, left.toNanos()), TimeUnit.NANOSECONDS)) {
                permits.release(all);
            } else {
                engine.diagnostics().logger().log(System.Logger.Level.WARNING, (all - permits.availablePermits())
                        + " handler(s) of " + group.describe() + " still running after the " + timeout.toMillis()
                        + " ms shutdown timeout; their ranges are left to lease expiry");
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Commits what finished, gives back what never started, and records the resolved prefix of the rest. */
    private void settle() {
        recorderThread.shutdown();
        try {
            recorderThread.awaitTermination(options.resolvedRecordMargin().toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        openRanges.addAll(failedCommits);
        for (ClaimedRange range : openRanges) {
            try {
                if (range.stale()) {
                    continue;
                }
                if (range.neverStarted()) {
                    recorder.surrender(range);
                } else {
                    recorder.commitPrefix(range, config.current());
                }
            } catch (SqlStreamsException settleFailure) {
                engine.diagnostics().logger().log(System.Logger.Level.WARNING, "could not settle " + range.describe()
                        + " of " + group.describe() + " at shutdown; it is reclaimed after its lease: "
                        + settleFailure.getMessage());
            }
        }
        openRanges.clear();
    }

    private void awaitStoppedUninterruptibly() {
        boolean interrupted = false;
        while (stopped.getCount() > 0) {
            try {
                stopped.await();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

}
