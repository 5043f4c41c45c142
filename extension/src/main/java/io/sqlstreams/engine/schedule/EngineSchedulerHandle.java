package io.sqlstreams.engine.schedule;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

import io.sqlstreams.Code;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Schedule;
import io.sqlstreams.ScheduleGroupStatus;
import io.sqlstreams.ScheduleRunOptions;
import io.sqlstreams.ScheduledMessage;
import io.sqlstreams.SchedulerConfig;
import io.sqlstreams.SchedulerHandle;
import io.sqlstreams.SchedulerInstance;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.Names;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.ScheduleQueries;
import io.sqlstreams.engine.query.ScheduleQueries.RunSource;
import io.sqlstreams.engine.query.ScheduleQueries.State;
import io.sqlstreams.engine.query.StreamQueries;

/** The verbs of one named schedule. */
public final class EngineSchedulerHandle implements SchedulerHandle {
    private final Engine engine;
    private final String name;
    private final ScheduleQueries schedules;
    private final StreamQueries streams;

    public EngineSchedulerHandle(Engine engine, String name) {
        this.engine = engine;
        this.name = name;
        this.schedules = new ScheduleQueries(engine.sql());
        this.streams = new StreamQueries(engine.sql());
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> SchedulerInstance<T> register(String stream, String expression, T payload, SchedulerConfig config) {
        new ScheduleDeclaration(engine).register(name, stream, expression, payload, config);
        return new EngineSchedulerInstance<>(this, stream, (Class<T>) payload.getClass());
    }

    @Override
    public Schedule get() {
        checkName();
        if (!engine.migrator().installed()) {
            throw ScheduleQueries.notFound(name);
        }
        return engine.database().autoCommit("reading schedule \"" + name + "\"",
                connection -> schedules.find(connection, name)).orElseThrow(() -> ScheduleQueries.notFound(name));
    }

    @Override
    public void suspend() {
        changeSuspension(true);
    }

    @Override
    public void unsuspend() {
        changeSuspension(false);
    }

    /** Unsuspending seeds the next due time from the database's clock, dropping the times missed meanwhile. */
    private void changeSuspension(boolean suspended) {
        checkName();
        if (!engine.migrator().installed()) {
            throw ScheduleQueries.notFound(name);
        }
        engine.database().inTransaction((suspended ? "suspending" : "unsuspending") + " schedule \"" + name + "\"",
                connection -> {
                    State state = schedules.lockState(connection, name)
                            .orElseThrow(() -> ScheduleQueries.notFound(name));
                    if (state.suspended() == suspended) {
                        return null;
                    }
                    schedules.setSuspended(connection, state.id(), suspended);
                    if (!suspended) {
                        Instant now = schedules.databaseNow(connection);
                        ScheduleExpression expression = ScheduleExpression.parse("expression", state.expression(),
                                now);
                        schedules.seedCursor(connection, state.id(), expression.first(now).orElseThrow(() ->
                                new IllegalStateException("schedule \"" + name + "\" has no time after " + now)));
                    }
                    return null;
                });
    }

    @Override
    public ProduceResult run(ScheduleRunOptions options) {
        checkName();
        ScheduleRunOptions resolved = options == null ? ScheduleRunOptions.defaults() : options;
        resolved.validate();
        if (!engine.migrator().installed()) {
            throw ScheduleQueries.notFound(name);
        }
        ScheduledMessages messages = new ScheduledMessages(engine);
        Ran ran = engine.database().inTransaction("running schedule \"" + name + "\"", connection -> {
            RunSource source = schedules.lockForRun(connection, name).orElseThrow(() -> ScheduleQueries.notFound(name));
            ProduceResult result = messages.produce(connection, new ScheduledMessages.Message(name, source.streamId(),
                    source.schemaVersion(), source.payload(), resolved.resolvedConcurrency(), source.timeout(),
                    source.now(), null));
            return new Ran(result, source.streamId());
        });
        engine.wakeups().committed(ran.streamId());
        return ran.result();
    }

    @Override
    public List<ScheduleGroupStatus> status() {
        return read("reading the status of schedule \"" + name + "\"",
                (connection, stream) -> schedules.groupStatus(connection, stream, name));
    }

    @Override
    public List<ScheduledMessage> messages(int limit) {
        checkName();
        if (limit < 1) {
            throw new InvalidConfigurationException(List.of(new InvalidConfigurationException.Violation("limit",
                    limit, "must be at least 1")));
        }
        return read("reading the messages of schedule \"" + name + "\"",
                (connection, stream) -> schedules.messages(connection, stream, name, limit));
    }

    /** {@code read} on the schedule's stream, in one autocommit unit; SQL0013 when there is no such schedule. */
    private <R> R read(String what, StreamRead<R> read) {
        checkName();
        if (!engine.migrator().installed()) {
            throw ScheduleQueries.notFound(name);
        }
        return engine.database().autoCommit(what, connection -> {
            long streamId = schedules.streamOf(connection, name).orElseThrow(() -> ScheduleQueries.notFound(name));
            return read.apply(connection, streams.find(connection, streamId).orElseThrow(
                    () -> ScheduleQueries.notFound(name)));
        });
    }

    @FunctionalInterface
    private interface StreamRead<R> {
        R apply(Connection connection, Stream stream) throws SQLException;
    }

    @Override
    public void destroy() {
        checkName();
        if (!engine.config().allowDestroy()) {
            throw new SqlStreamsException(Code.SQL0008, "destroying schedule \"" + name
                    + "\" needs ClientConfig.allowDestroy");
        }
        if (!engine.migrator().installed()
                || !engine.database().inTransaction("destroying schedule \"" + name + "\"",
                        connection -> schedules.delete(connection, name))) {
            throw ScheduleQueries.notFound(name);
        }
    }

    private void checkName() {
        Names.resource("schedule", name);
    }

    private record Ran(ProduceResult result, long streamId) {
    }
}
