package io.sqlstreams.engine.maintenance;

import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.JanitorConfig;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.VacuumConfig;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.WorkerQueries;
import io.sqlstreams.engine.stream.StreamWorkers;
import io.sqlstreams.engine.worker.WorkerRunner;
import io.sqlstreams.engine.worker.WorkerSettings;

/**
 * Runs a stream's maintenance workers in this process: a {@link WorkerRunner} for {@code stream_janitor}, whose
 * ticks are one janitor's pass each, and one for {@code stream_vacuum}, whose ticks are one vacuum each. Each
 * runner claims under its worker's target, so the vacuum (suspended on a new stream) waits declined until its
 * target is raised. A pass with a failed step is a failed tick (SQL0139 naming the steps), so the runner's failure
 * streak and back-off apply.
 */
public final class StreamJanitorWorker {
    /** The two runners of one stream's workers. */
    public record Running(WorkerRunner janitor, WorkerRunner vacuum) {
        /** Stops both runners, releasing the rows they hold. */
        public void stop() {
            janitor.stop();
            vacuum.stop();
        }
    }

    private final Engine engine;
    private final StreamJanitor janitor;
    private final WorkerQueries workers;

    public StreamJanitorWorker(Engine engine) {
        this.engine = engine;
        this.janitor = new StreamJanitor(engine);
        this.workers = new WorkerQueries(engine.sql());
    }

    /**
     * Starts the runners of {@code stream}'s two workers, each ticking at the poll rate its worker's document
     * holds now; the other settings are read when an instance is claimed. {@code owner} is told when a runner ends
     * by itself, for example SQL0106 once the stream is destroyed.
     *
     * @throws SqlStreamsException SQL0106 when the stream has no such worker (it is gone), SQL0108 naming the key
     *                             of a malformed stored document
     */
    public Running start(Stream stream, WorkerRunner.Owner owner) {
        WorkerQueries.Declared janitorRow = declared(stream, StreamWorkers.JANITOR);
        WorkerQueries.Declared vacuumRow = declared(stream, StreamWorkers.VACUUM);
        JanitorConfig janitorNow = StreamWorkers.janitorConfig(janitorRow.metadata());
        VacuumConfig vacuumNow = StreamWorkers.vacuumConfig(vacuumRow.metadata());
        String janitorSubject = subject(StreamWorkers.JANITOR, stream);
        String vacuumSubject = subject(StreamWorkers.VACUUM, stream);
        WorkerRunner janitorRunner = WorkerRunner.start(engine, janitorRow.id(), janitorSubject,
                StreamWorkers.JANITOR, WorkerSettings.of(janitorNow.resolvedPollRate()),
                new MaintenanceTick<>(engine, stream, StreamWorkers.JANITOR, janitorSubject,
                        StreamWorkers::janitorConfig, StreamWorkers::describe,
                        config -> janitor.pass(stream, config).failure()),
                owner);
        try {
            WorkerRunner vacuumRunner = WorkerRunner.start(engine, vacuumRow.id(), vacuumSubject,
                    StreamWorkers.VACUUM, WorkerSettings.of(vacuumNow.resolvedPollRate()),
                    new MaintenanceTick<>(engine, stream, StreamWorkers.VACUUM, vacuumSubject,
                            StreamWorkers::vacuumConfig, StreamWorkers::describe,
                            config -> Optional.ofNullable(janitor.vacuum(stream, config).failure())),
                    owner);
            return new Running(janitorRunner, vacuumRunner);
        } catch (RuntimeException | Error refused) {
            janitorRunner.stop();
            throw refused;
        }
    }

    private WorkerQueries.Declared declared(Stream stream, String worker) {
        return engine.database().autoCommit("reading the worker " + worker + " of stream \"" + stream.name() + "\"",
                        connection -> workers.find(connection, WorkerQueries.Owner.STREAM, stream.id(), worker))
                .orElseThrow(() -> new SqlStreamsException(Code.SQL0106, subject(worker, stream)
                        + " has no definition row"));
    }

    private static String subject(String worker, Stream stream) {
        return "worker " + worker + " of stream \"" + stream.name() + "\"";
    }
}
