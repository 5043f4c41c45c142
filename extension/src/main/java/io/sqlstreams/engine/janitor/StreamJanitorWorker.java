package io.sqlstreams.engine.janitor;

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
 * streak and back-off apply. Every tick reads the stream's row afresh, so a redeclared retention applies at once.
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
    private final WorkerSettings base;
    private final StreamJanitor janitor;
    private final WorkerQueries workers;

    /** Runners with the default InstanceTTL, jitter and retry curve around each worker's own poll rate. */
    public StreamJanitorWorker(Engine engine) {
        this(engine, WorkerSettings.of(JanitorConfig.DEFAULT_POLL_RATE));
    }

    /**
     * Runners with {@code base}'s InstanceTTL, jitter and retry curve (the system manager's), each ticking at its
     * own worker's poll rate.
     */
    public StreamJanitorWorker(Engine engine, WorkerSettings base) {
        this.engine = engine;
        this.base = base;
        this.janitor = new StreamJanitor(engine);
        this.workers = new WorkerQueries(engine.sql());
    }

    /**
     * Starts the runners of both of {@code stream}'s workers.
     *
     * @throws SqlStreamsException as {@link #startJanitor} and {@link #startVacuum}
     */
    public Running start(Stream stream, WorkerRunner.Owner owner) {
        WorkerRunner janitorRunner = startJanitor(stream.id(), stream.name(),
                declared(stream, StreamWorkers.JANITOR).id(), owner);
        try {
            return new Running(janitorRunner, startVacuum(stream.id(), stream.name(),
                    declared(stream, StreamWorkers.VACUUM).id(), owner));
        } catch (RuntimeException | Error refused) {
            janitorRunner.stop();
            throw refused;
        }
    }

    /**
     * Starts the runner of the stream's {@code stream_janitor} worker {@code workerId}, ticking at the poll rate its
     * document holds now; the janitor's other settings are read when an instance is claimed. {@code owner} is told when the
     * runner ends by itself, for example SQL0106 once the stream is destroyed.
     *
     * @throws SqlStreamsException SQL0106 when the worker is gone, SQL0108 naming the key of a malformed document
     */
    public WorkerRunner startJanitor(long streamId, String streamName, long workerId, WorkerRunner.Owner owner) {
        String subject = subject(StreamWorkers.JANITOR, streamName);
        JanitorConfig now = StreamWorkers.janitorConfig(document(streamId, StreamWorkers.JANITOR, subject));
        return WorkerRunner.start(engine, workerId, subject, StreamWorkers.JANITOR,
                base.withPollRate(now.resolvedPollRate()),
                new MaintenanceTick<>(engine, streamId, StreamWorkers.JANITOR, subject, StreamWorkers::janitorConfig,
                        StreamWorkers::describe, (stream, config) -> janitor.pass(stream, config).failure()),
                owner);
    }

    /** Starts the runner of the stream's {@code stream_vacuum} worker, as {@link #startJanitor} does the janitor's. */
    public WorkerRunner startVacuum(long streamId, String streamName, long workerId, WorkerRunner.Owner owner) {
        String subject = subject(StreamWorkers.VACUUM, streamName);
        VacuumConfig now = StreamWorkers.vacuumConfig(document(streamId, StreamWorkers.VACUUM, subject));
        return WorkerRunner.start(engine, workerId, subject, StreamWorkers.VACUUM,
                base.withPollRate(now.resolvedPollRate()),
                new MaintenanceTick<>(engine, streamId, StreamWorkers.VACUUM, subject, StreamWorkers::vacuumConfig,
                        StreamWorkers::describe,
                        (stream, config) -> Optional.ofNullable(janitor.vacuum(stream, config).failure())),
                owner);
    }

    private WorkerQueries.Declared declared(Stream stream, String worker) {
        return find(stream.id(), worker, subject(worker, stream.name()));
    }

    private String document(long streamId, String worker, String subject) {
        return find(streamId, worker, subject).metadata();
    }

    private WorkerQueries.Declared find(long streamId, String worker, String subject) {
        return engine.database().autoCommit("reading the " + subject,
                        connection -> workers.find(connection, WorkerQueries.Owner.STREAM, streamId, worker))
                .orElseThrow(() -> new SqlStreamsException(Code.SQL0106, subject + " has no definition row"));
    }

    private static String subject(String worker, String streamName) {
        return "worker " + worker + " of stream \"" + streamName + "\"";
    }
}
