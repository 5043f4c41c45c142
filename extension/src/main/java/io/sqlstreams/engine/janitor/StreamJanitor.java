package io.sqlstreams.engine.janitor;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.sqlstreams.Code;
import io.sqlstreams.JanitorConfig;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.VacuumConfig;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.DdlLockTimeout;
import io.sqlstreams.engine.query.JanitorQueries;
import io.sqlstreams.engine.query.StreamQueries;

/**
 * One pass of a stream's janitor, and one vacuum of its idempotency claims: each call does its work once and
 * returns what it did; running it on a schedule is the caller's. A pass runs its steps in {@link JanitorStep}
 * order, each bounded by the janitor's CleanupTimeout, retries included. A step that fails is reported with its
 * coded failure and logged once (SQL0033 for the partitions ahead, SQL0139 for the others), and the remaining
 * steps still run.
 */
public final class StreamJanitor {
    private final Engine engine;
    private final JanitorQueries queries;
    private final StreamQueries streams;
    private final DdlLockTimeout ddlLockTimeout;
    private final Clock clock;

    public StreamJanitor(Engine engine) {
        this.engine = engine;
        this.queries = new JanitorQueries(engine.sql());
        this.streams = new StreamQueries(engine.sql());
        this.ddlLockTimeout = new DdlLockTimeout(engine.sql());
        this.clock = engine.environment().clock();
    }

    /** Runs every step of the janitor over {@code stream} once, with {@code config}'s batch size and timeouts. */
    public JanitorPass pass(Stream stream, JanitorConfig config) {
        Instant began = clock.instant();
        Duration timeout = config.resolvedCleanupTimeout();
        PartitionUpkeep partitions = new PartitionUpkeep(queries, streams, ddlLockTimeout, stream);
        ExpirySweeps sweeps = new ExpirySweeps(queries, stream, config);
        List<StepReport> steps = new ArrayList<>();
        steps.add(step(stream, JanitorStep.CREATE_AHEAD, timeout, partitions::createAhead));
        steps.add(step(stream, JanitorStep.DROP_EXPIRED_PARTITIONS, timeout, partitions::dropExpired));
        steps.add(step(stream, JanitorStep.SWEEP_EXPIRED_MESSAGES, timeout, sweeps::expiredMessages));
        steps.add(step(stream, JanitorStep.SWEEP_IDEMPOTENCY_KEYS, timeout, sweeps::idempotencyKeys));
        steps.add(step(stream, JanitorStep.SWEEP_EMPTY_COMPACTION_HEADS, timeout, sweeps::emptyCompactionHeads));
        steps.add(step(stream, JanitorStep.SWEEP_EXPIRED_KEY_LEASES, timeout, sweeps::expiredKeyLeases));
        return new JanitorPass(stream.id(), steps, Duration.between(began, clock.instant()));
    }

    /**
     * {@code VACUUM (ANALYZE)} of {@code stream}'s idempotency claims on an auto-commit connection, bounded by
     * {@code config}'s VacuumTimeout, retries included; a failure is reported and logged (SQL0139).
     */
    public VacuumPass vacuum(Stream stream, VacuumConfig config) {
        Instant began = clock.instant();
        CleanupBudget budget = new CleanupBudget(engine, queries, config.resolvedVacuumTimeout());
        try {
            budget.autoCommit("vacuuming the idempotency claims of stream \"" + stream.name() + "\"",
                    (connection, limit) -> {
                        queries.vacuumIdempotencyKeys(connection, stream.id(), limit);
                        return null;
                    });
            return new VacuumPass(stream.id(), Duration.between(began, clock.instant()), null);
        } catch (SqlStreamsException failure) {
            Duration took = Duration.between(began, clock.instant());
            engine.diagnostics().event(Code.SQL0139, "stream \"" + stream.name() + "\": vacuum failed after "
                    + took.toMillis() + " ms: " + failure.getMessage());
            return new VacuumPass(stream.id(), took, failure);
        }
    }

    private StepReport step(Stream stream, JanitorStep step, Duration timeout, Step work) {
        Instant began = clock.instant();
        CleanupBudget budget = new CleanupBudget(engine, queries, timeout);
        try {
            work.run(budget);
            return new StepReport(step, budget.counted(), Duration.between(began, clock.instant()), null);
        } catch (SqlStreamsException failure) {
            Duration took = Duration.between(began, clock.instant());
            Code code = step == JanitorStep.CREATE_AHEAD ? Code.SQL0033 : Code.SQL0139;
            engine.diagnostics().event(code, "stream \"" + stream.name() + "\": janitor step " + step.wireName()
                    + " failed after " + took.toMillis() + " ms: " + failure.getMessage());
            return new StepReport(step, budget.counted(), took, failure);
        }
    }

    /** One step's work within its budget, counting what it removes (or creates) on the budget as it goes. */
    @FunctionalInterface
    private interface Step {
        void run(CleanupBudget budget);
    }
}
