package io.sqlstreams.engine.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.sqlstreams.Code;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.ScheduleQueries;
import io.sqlstreams.engine.query.ScheduleQueries.Due;
import io.sqlstreams.engine.worker.WorkerTask;

/**
 * The system's {@code schedule_producer}: each tick produces every schedule whose due time has come by the
 * database's clock, each in one transaction with its cursor's advance, so a due time is produced exactly once
 * however many managers run. After downtime only the newest due time is produced. A schedule whose produce fails
 * is left for the next tick while the others go on, and the tick then counts as failed.
 */
public final class ScheduleProducer implements WorkerTask {
    /** How often the producer looks for due schedules; schedules are a minute apart at the least. */
    public static final Duration POLL_RATE = Duration.ofSeconds(10);

    private final Engine engine;
    private final ScheduleQueries schedules;
    private final ScheduledMessages messages;
    private final Map<String, ScheduleExpression> expressions = new ConcurrentHashMap<>();

    public ScheduleProducer(Engine engine) {
        this.engine = engine;
        this.schedules = new ScheduleQueries(engine.sql());
        this.messages = new ScheduledMessages(engine);
    }

    @Override
    public void tick() {
        Set<Long> failed = new HashSet<>();
        RuntimeException firstFailure = null;
        while (true) {
            Optional<Produced> produced;
            try {
                produced = produceNext(failed);
            } catch (ScheduleFailure failure) {
                failed.add(failure.scheduleId);
                firstFailure = firstFailure == null ? failure : firstFailure;
                continue;
            }
            if (produced.isEmpty()) {
                break;
            }
            engine.wakeups().committed(produced.get().streamId());
        }
        if (firstFailure != null) {
            throw firstFailure;
        }
    }

    private Optional<Produced> produceNext(Set<Long> skipped) {
        return engine.database().inTransaction("producing due schedules", connection -> {
            Optional<Due> found = schedules.nextDue(connection, skipped);
            if (found.isEmpty()) {
                return Optional.<Produced>empty();
            }
            Due due = found.get();
            try {
                ScheduleExpression expression = expression(due.expression());
                Instant dueAt = expression.newestDue(due.nextScheduledAt(), due.now()).orElse(due.nextScheduledAt());
                ProduceResult result = messages.produce(connection, new ScheduledMessages.Message(due.name(),
                        due.streamId(), due.schemaVersion(), due.payload(), due.concurrency(), due.timeout(), dueAt,
                        ScheduleIdempotencyKey.of(due.id(), dueAt)));
                if (result.duplicate()) {
                    engine.diagnostics().event(Code.SQL0037, "schedule \"" + due.name() + "\" was already produced"
                            + " for " + dueAt + " by an earlier commit; the replay was dropped");
                }
                Instant next = expression.following(dueAt, due.now()).orElseThrow(() -> new IllegalStateException(
                        "schedule \"" + due.name() + "\" has no time after " + due.now()));
                schedules.advance(connection, due.id(), dueAt, next);
                return Optional.of(new Produced(due.streamId()));
            } catch (RuntimeException failure) {
                throw new ScheduleFailure(due, failure);
            }
        });
    }

    /** Expressions are checked when registered; the stored ones are parsed once per producer. */
    private ScheduleExpression expression(String text) {
        return expressions.computeIfAbsent(text, stored -> ScheduleExpression.parse("expression", stored,
                engine.environment().clock().instant()));
    }

    private record Produced(long streamId) {
    }

    /** One schedule could not be produced; the others go on. */
    private static final class ScheduleFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final long scheduleId;

        ScheduleFailure(Due due, RuntimeException cause) {
            super("schedule \"" + due.name() + "\" could not be produced for its due time "
                    + due.nextScheduledAt() + ": " + cause.getMessage(), cause);
            this.scheduleId = due.id();
        }
    }
}
