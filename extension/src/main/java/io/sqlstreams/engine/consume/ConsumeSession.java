package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricScope;
import io.sqlstreams.SessionCounters;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.codec.IdempotencyKeys;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.loop.Loop;
import io.sqlstreams.engine.metrics.BuiltInMetrics;
import io.sqlstreams.engine.metrics.EngineResourceMetrics;
import io.sqlstreams.engine.telemetry.GroupObservation;
import io.sqlstreams.engine.wakeup.Wakeups;

/**
 * One consume session, wired when it begins: its liveness rows, the executors it creates, its loops — claim
 * ({@link ClaimLoop}), dispatch ({@link Dispatcher}), exception path ({@link ExceptionLoop}), heartbeat,
 * declaration refresh and counter flush ({@link SessionCounterFlusher}) — each on a {@link Loop} whose unrequested
 * exit fails the session, and its share of the group's own workers ({@link GroupWorkers}: the cursor advance),
 * reconciled at start and at every heartbeat. Stopping it stops claiming, waits for in-flight handlers up to the
 * shutdown timeout, settles every open range ({@link RangeCommitter}), and then, in one place, stops its group
 * workers (releasing their claims), closes every executor, releases its liveness rows, flushes its counters a
 * last time and logs SQL0041 with its counters. While it runs, its group's gauges are reported to the client's
 * telemetry. With disableGracefulShutdown it halts instead ({@link Halt}):
 * no wait for the handlers, only the outcomes already known are recorded, and the rest is left to lease expiry.
 */
final class ConsumeSession<T> implements ConsumerSession {
    /** Beyond the record margin, how long the stop waits for the recorder thread's last commits. */
    private static final Duration RECORD_WAIT_SLACK = Duration.ofSeconds(1);

    private final Engine engine;
    private final RegisteredGroup group;
    private final Class<T> payloadType;
    private final int schemaVersion;
    private final SessionHandler<T> handler;
    private final ExecutorService handlerExecutor;
    private final ConsumeOptions options;
    private final ConsumerConfig declared;
    private final String id = IdempotencyKeys.mintV7().toString();
    private final SessionCounterSet counters = new SessionCounterSet();
    private final SessionCounterFlusher counterFlusher;
    private final GroupConfigCache config;
    private final WorkerInstances instances;
    private final CursorAdvancer advancer;
    private final GroupWorkers groupWorkers;
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final Halt halt = new Halt();
    private final CountDownLatch started = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Consumer<ConsumeSession<T>> onStopped;
    private final Instant startedAt;
    private volatile Instant lastHeartbeat;

    // Set by begin(), under this session's lock; stop() reads them once begin() has returned.
    private SessionExecutors executors;
    private KeyChainGate gate;
    private Dispatcher dispatcher;
    private RangeCommitter committer;
    private final List<Loop> workLoops = new ArrayList<>();
    private final List<Loop> upkeepLoops = new ArrayList<>();
    private volatile Loop heartbeat;
    private volatile Loop exceptionPath;
    private Wakeups.Subscription wakeups;
    private GroupObservation gauges = GroupObservation.NONE;

    ConsumeSession(Engine engine, RegisteredGroup group, Class<T> payloadType, int schemaVersion,
                   SessionHandler<T> handler, ConsumeOptions options, ConsumerConfig declared,
                   ExecutorService handlerExecutor, Consumer<ConsumeSession<T>> onStopped) {
        this.engine = engine;
        this.group = group;
        this.payloadType = payloadType;
        this.schemaVersion = schemaVersion;
        this.handler = handler;
        this.handlerExecutor = handlerExecutor;
        this.options = options;
        this.declared = declared;
        this.onStopped = onStopped;
        this.config = new GroupConfigCache(engine, group, declared);
        this.instances = new WorkerInstances(engine, group);
        this.advancer = new CursorAdvancer(engine, group);
        this.groupWorkers = new GroupWorkers(engine, group, options.resolvedInstanceTtl(), advancer);
        this.counterFlusher = new SessionCounterFlusher(engine, group, schemaVersion, id, counters);
        this.startedAt = engine.environment().clock().instant();
        this.lastHeartbeat = startedAt;
    }

    /** Claims liveness, creates the session's executors, starts every loop, and returns once the session runs. */
    synchronized void begin() {
        if (stopping.get()) {
            return;
        }
        config.refresh();
        ConsumerConfig current = config.current();
        instances.claim(options.resolvedInstanceTtl());
        lastHeartbeat = engine.environment().clock().instant();
        engine.diagnostics().event(Code.SQL0115, "consumer starting: " + group.describe() + " session=" + id
                + " batch_limit=" + options.resolvedBatchLimit() + " queue_size=" + options.resolvedQueueSize()
                + " message_concurrency=" + options.resolvedMessageConcurrency()
                + " claim_poll_rate=" + options.resolvedClaimPollRate().toMillis() + "ms"
                + " range_lease=" + options.rangeLeaseDuration(current).toMillis() + "ms"
                + " shutdown_timeout=" + options.resolvedShutdownTimeout(current).toMillis() + "ms");
        executors = new SessionExecutors(engine.environment().threads(), this::threadName);
        startLoops();
        groupWorkers.reconcile();
        gauges = engine.telemetry().observe(group.streamName(), group.groupName(),
                BuiltInMetrics.ofScope(MetricScope.CONSUMER_GROUP), this::readGroupGauges);
        started.countDown();
    }

    /** Wires the session's parts over its executors and starts its loops, upkeep first. */
    private void startLoops() {
        LeaseBudget budget = LeaseBudget.of(options);
        boolean transactional = handler.commitsWithItsOutcome();
        SlowDispatchAlarm slowDispatches = new SlowDispatchAlarm(engine, group,
                options.resolvedSlowDispatchThreshold());
        HandlerRunner<T> handlers = new HandlerRunner<>(engine, group, payloadType,
                handler.retryBody(engine.database().dataSource(), budget),
                handlerExecutor, executors.timer, budget, counters, slowDispatches);
        KeyLeases keyLeases = new KeyLeases(engine, group);
        KeyedRunner<T> keyed = new KeyedRunner<>(handlers, keyLeases, budget);
        LocalQueue queue = new LocalQueue(options.resolvedQueueSize());
        gate = new KeyChainGate(keyLeases, engine.environment().clock(), options.resolvedTimeoutGrace(),
                options.resolvedRecordMargin(), executors.keyRetries, new KeyChainGate.Outlet() {
                    @Override
                    public void admitted(DispatchUnit chain) {
                        queue.add(chain);
                    }

                    @Override
                    public void refused(DispatchUnit chain, String reason) {
                        dispatcher.deferUnrun(chain, reason);
                    }

                    @Override
                    public void rangeReady(ClaimedRange range) {
                        queue.add(DispatchUnit.whole(range));
                    }
                }, transactional);
        RangeRecorder recorder = new RangeRecorder(engine, group, counters, keyLeases, this::wakeExceptionPath);
        committer = new RangeCommitter(engine, group, recorder, config, executors.recorder, gate::nudge);
        RangeRun.Parts rangeParts = new RangeRun.Parts(engine, group, handlerExecutor, executors.timer, budget,
                keyLeases, recorder, committer, config, counters, slowDispatches);
        Dispatcher.UnitRunner units = handler.units(payloadType, rangeParts, () -> new ChainRunner<>(handlers, keyed,
                gate, committer, new RangeLeaseRenewal(engine, group, budget)));
        dispatcher = new Dispatcher(engine, group, queue, units, committer, options.resolvedMessageConcurrency());
        RangeReader reader = new RangeReader(engine, group, schemaVersion);
        ClaimLoop claims = new ClaimLoop(engine, group, options, declared, config, instances,
                new FreshClaimer(engine, group, schemaVersion, reader, counters), queue, gate, committer,
                transactional);
        ExceptionLoop<T> exceptions = new ExceptionLoop<>(engine, group, options, config,
                new ExceptionConsumer<>(engine, group, schemaVersion, reader, keyed, counters, this::advanceCursor,
                        halt, transactional, options.resolvedMessageConcurrency()), budget);

        heartbeat = loop(upkeepLoops, "heartbeat", Loop.every(options.resolvedInstanceTtl().dividedBy(2),
                this::renewLiveness));
        loop(upkeepLoops, "refresh", Loop.every(options.resolvedConfigRefreshInterval(), config::refresh));
        loop(upkeepLoops, "metrics", Loop.every(SessionCounterFlusher.PERIOD, counterFlusher::flush));
        exceptionPath = loop(workLoops, "exceptions", exceptions);
        Loop claiming = loop(workLoops, "claim", claims);
        wakeups = engine.wakeups().subscribe(group.streamId(), claiming::wake);
        loop(workLoops, "dispatch", dispatcher);
    }

    /**
     * Retries were written: the exception path learns when the first comes due instead of waiting a poll. Its
     * loop starts before the claim loop, so no recording can come before it is there to wake.
     */
    private void wakeExceptionPath() {
        Loop path = exceptionPath;
        if (path != null) {
            path.wake();
        }
    }

    private List<Measurement> readGroupGauges() {
        return EngineResourceMetrics.ofGroup(engine, group.streamName(), group.groupName()).snapshot();
    }

    private Loop loop(List<Loop> into, String role, Loop.Body body) {
        Loop loop = Loop.start(engine.environment().threads(), threadName(role), body,
                (failed, cause) -> fail(cause));
        into.add(loop);
        return loop;
    }

    /** The name of this session's thread for {@code role}: {@code sqlstreams-<role>-<group>-<session id>}. */
    private String threadName(String role) {
        return "sqlstreams-" + role + "-" + group.groupName() + "-" + id;
    }

    private void renewLiveness() {
        try {
            counters.instanceReclaims.add(instances.renew(options.resolvedInstanceTtl()));
            lastHeartbeat = engine.environment().clock().instant();
        } catch (SqlStreamsException failed) {
            SessionFailure.rethrowIfEnding(failed);
        }
        groupWorkers.reconcile();
    }

    private void advanceCursor() {
        try {
            advancer.advance();
        } catch (SqlStreamsException advanceFailure) {
            engine.diagnostics().debug(Code.SQL0130, () -> "cursor advance of " + group.describe()
                    + " failed; next period retries: " + advanceFailure.getMessage());
        }
    }

    /** A loop failed: record why, stop the heartbeat at once, and stop the session from a thread of its own. */
    private void fail(SqlStreamsException cause) {
        if (failure.compareAndSet(null, cause)) {
            engine.diagnostics().event(cause.code(), "session " + id + " of " + group.describe()
                    + " failed and stops: " + cause.getMessage());
            Loop beating = heartbeat;
            if (beating != null) {
                beating.stop();
            }
            engine.environment().threads().thread(threadName("stop"), this::close).start();
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
    public boolean isPaused() {
        return config.paused();
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
        Instant deadline = engine.environment().clock().instant().plus(timeout);
        synchronized (this) {
            // begin() has returned or failed: the parts it made are all visible
        }
        try {
            if (committer != null && options.disableGracefulShutdown()) {
                halt();
            } else if (committer != null) {
                drain(deadline, timeout);
            }
        } finally {
            if (wakeups != null) {
                wakeups.close();
            }
            gauges.close();
            workLoops.forEach(Loop::stop);
            upkeepLoops.forEach(Loop::stop);
            groupWorkers.stop();
            if (executors != null) {
                executors.close();
            }
            instances.release();
            counterFlusher.flush();
            engine.diagnostics().event(Code.SQL0041, "consumer stopped: " + group.describe() + " session=" + id
                    + " duration_ms=" + Duration.between(startedAt, engine.environment().clock().instant()).toMillis()
                    + " " + counters.summary());
            stopped.countDown();
            onStopped.accept(this);
        }
    }

    /** Stops claiming and dispatching, lets the handlers in flight finish, and settles every open range. */
    private void drain(Instant deadline, Duration timeout) {
        workLoops.forEach(Loop::stop);
        joinWorkLoops(deadline);
        gate.close().forEach(chain -> dispatcher.deferUnrun(chain,
                "the session stopped while the chain waited for its key"));
        dispatcher.drainInFlight(deadline, timeout);
        committer.settle(options.resolvedRecordMargin().plus(RECORD_WAIT_SLACK));
        upkeepLoops.forEach(Loop::stop);
        advanceCursor();
    }

    /**
     * Stops as a process exit would, but for what is already known: handlers in flight are neither waited for nor
     * interrupted (an outcome they reach later is not recorded), chains waiting for their key are dropped, and
     * every range keeps its lease but for the resolved prefix it records.
     */
    private void halt() {
        halt.raise();
        workLoops.forEach(Loop::stop);
        joinWorkLoops(engine.environment().clock().instant().plus(options.resolvedRecordMargin()));
        gate.close();
        committer.recordResolved(options.resolvedRecordMargin().plus(RECORD_WAIT_SLACK));
    }

    private void joinWorkLoops(Instant until) {
        for (Loop loop : workLoops) {
            if (loop.isCurrentThread()) {
                continue;
            }
            try {
                loop.join(Duration.between(engine.environment().clock().instant(), until));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return;
            }
        }
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
