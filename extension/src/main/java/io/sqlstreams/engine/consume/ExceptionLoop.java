package io.sqlstreams.engine.consume;

import java.time.Duration;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.loop.Loop;

/**
 * The exception loop: one pass of the {@link ExceptionConsumer} after another. Idle, it rests a poll period, or
 * until the next ready row comes due when that is sooner, or until {@link Loop#wake() woken} because the session
 * wrote exception rows; none while the group is paused.
 */
final class ExceptionLoop<T> implements Loop.Body {
    private final Engine engine;
    private final RegisteredGroup group;
    private final ConsumeOptions options;
    private final GroupConfigCache config;
    private final ExceptionConsumer<T> exceptions;
    private final LeaseBudget budget;

    ExceptionLoop(Engine engine, RegisteredGroup group, ConsumeOptions options, GroupConfigCache config,
                  ExceptionConsumer<T> exceptions, LeaseBudget budget) {
        this.engine = engine;
        this.group = group;
        this.options = options;
        this.config = config;
        this.exceptions = exceptions;
        this.budget = budget;
    }

    @Override
    public void pass(Loop loop) throws InterruptedException {
        Duration pollRate = options.resolvedClaimPollRate();
        if (config.paused()) {
            loop.pause(pollRate);
            return;
        }
        try {
            ConsumerConfig current = config.current();
            int ran = exceptions.pass(options.resolvedBatchLimit(), current, options.rangeLeaseDuration(current),
                    budget, loop::stopping);
            if (ran == 0) {
                loop.pauseUnlessWoken(exceptions.rest(pollRate));
            }
        } catch (SqlStreamsException passFailure) {
            SessionFailure.rethrowIfEnding(passFailure);
            engine.diagnostics().event(Code.SQL0120, "exception pass of " + group.describe()
                    + " failed; retrying in " + pollRate.toMillis() + " ms: " + passFailure.getMessage());
            loop.pause(pollRate);
        }
    }
}
