package io.sqlstreams.engine.janitor;

import java.time.Duration;
import java.util.List;

import io.sqlstreams.Stream;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.BindingQueries;
import io.sqlstreams.engine.query.StreamQueries;
import io.sqlstreams.engine.worker.WorkerTask;

/**
 * One tick of the system's {@code consumer_group_janitor}: on every stream, deletes the waiting binding
 * declarations that a later declaration of the same group superseded more than {@link #SUPERSEDED_AGE} ago, so a
 * group's declaration history keeps what is still pending and its recent past.
 */
public final class BindingJanitor implements WorkerTask {
    static final Duration SUPERSEDED_AGE = Duration.ofDays(7);
    public static final Duration POLL_RATE = Duration.ofHours(1);

    private final Engine engine;
    private final StreamQueries streams;
    private final BindingQueries bindings;

    public BindingJanitor(Engine engine) {
        this.engine = engine;
        this.streams = new StreamQueries(engine.sql());
        this.bindings = new BindingQueries(engine.sql());
    }

    @Override
    public void tick() {
        List<Stream> all = engine.database().autoCommit("listing streams for the binding janitor", streams::all);
        for (Stream stream : all) {
            engine.database().autoCommit("sweeping superseded binding declarations of stream \"" + stream.name()
                    + "\"", connection -> bindings.sweepSupersededWaits(connection, stream.id(), SUPERSEDED_AGE));
        }
    }
}
