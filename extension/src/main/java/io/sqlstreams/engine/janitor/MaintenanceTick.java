package io.sqlstreams.engine.janitor;

import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.StreamQueries;
import io.sqlstreams.engine.query.WorkerQueries;
import io.sqlstreams.engine.worker.WorkerTask;

/**
 * One tick of a stream's maintenance worker ({@code stream_janitor} or {@code stream_vacuum}). The first tick
 * follows the claim at once, so the settings it reads from the worker's row are the claim's, and the instance keeps
 * them (a changed document applies to instances claimed later); it logs them (SQL0140). Every tick first reads the
 * stream's row (its retention and TTLs as declared now) and checks that the worker's row still exists: a stream
 * destroyed in the meantime ends the runner (SQL0106) instead of failing its work against tables that are gone, and
 * so does one destroyed during a failed tick.
 *
 * @param <C> the worker's settings ({@code JanitorConfig} or {@code VacuumConfig})
 */
final class MaintenanceTick<C> implements WorkerTask {
    private final Engine engine;
    private final WorkerQueries workers;
    private final StreamQueries streams;
    private final long streamId;
    private final String worker;
    private final String subject;
    private final Function<String, C> reader;
    private final Function<C, String> describer;
    private final BiFunction<Stream, C, Optional<SqlStreamsException>> work;
    /** The claim's settings; touched on the runner's thread only. */
    private C settings;

    /**
     * @param reader    decodes the worker's stored document (SQL0108 naming a malformed key)
     * @param describer the settings as the start line reports them
     * @param work      one pass over the stream with the settings; its coded failure, empty when it succeeded
     */
    MaintenanceTick(Engine engine, long streamId, String worker, String subject, Function<String, C> reader,
                    Function<C, String> describer, BiFunction<Stream, C, Optional<SqlStreamsException>> work) {
        this.engine = engine;
        this.workers = new WorkerQueries(engine.sql());
        this.streams = new StreamQueries(engine.sql());
        this.streamId = streamId;
        this.worker = worker;
        this.subject = subject;
        this.reader = reader;
        this.describer = describer;
        this.work = work;
    }

    @Override
    public void tick() {
        Current current = current();
        if (settings == null) {
            settings = reader.apply(current.document());
            engine.diagnostics().event(Code.SQL0140, subject + " started an instance with "
                    + describer.apply(settings));
        }
        Optional<SqlStreamsException> failure = work.apply(current.stream(), settings);
        if (failure.isPresent()) {
            current();
            throw failure.get();
        }
    }

    /** The stream's row and the worker's stored document; SQL0106 once either is gone with the stream. */
    private Current current() {
        return engine.database().autoCommit("reading the settings of " + subject, connection -> {
            Optional<Stream> stream = streams.find(connection, streamId);
            Optional<WorkerQueries.Declared> declared = workers.find(connection, WorkerQueries.Owner.STREAM,
                    streamId, worker);
            return stream.isPresent() && declared.isPresent()
                    ? Optional.of(new Current(stream.get(), declared.get().metadata())) : Optional.<Current>empty();
        }).orElseThrow(() -> new SqlStreamsException(Code.SQL0106, subject
                + " has no definition row any more: its stream was destroyed"));
    }

    private record Current(Stream stream, String document) {
    }
}
