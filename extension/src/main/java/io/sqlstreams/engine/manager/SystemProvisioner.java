package io.sqlstreams.engine.manager;

import java.time.Duration;
import java.util.Optional;

import io.sqlstreams.SystemConfig;
import io.sqlstreams.engine.alert.StoredSystemConfig;
import io.sqlstreams.engine.alert.check.AlertChecks;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.janitor.BindingJanitor;
import io.sqlstreams.engine.janitor.StreamJanitorWorker;
import io.sqlstreams.engine.metrics.collector.MetricsCollector;
import io.sqlstreams.engine.query.WorkerQueries.FleetRow;
import io.sqlstreams.engine.schedule.ScheduleProducer;
import io.sqlstreams.engine.stream.StreamWorkers;
import io.sqlstreams.engine.worker.Fleet;
import io.sqlstreams.engine.worker.SystemWorkerNames;
import io.sqlstreams.engine.worker.WorkerRunner;
import io.sqlstreams.engine.worker.WorkerSettings;
import io.sqlstreams.engine.worker.WorkerTask;

/**
 * The worker kinds the system manager runs: each stream's {@code stream_janitor} and {@code stream_vacuum}, and the
 * system's {@code consumer_group_janitor}, {@code metrics_collector}, {@code alert_checks} and
 * {@code schedule_producer}. The manager's own row, and kinds a later
 * version or a user declares, are left to whoever runs them.
 */
final class SystemProvisioner implements Fleet.Provisioner<FleetRow> {
    private final Engine engine;
    private final WorkerSettings base;
    private final StreamJanitorWorker streamWorkers;

    /** @param base the manager's own settings: every worker it starts claims and heartbeats as the manager does */
    SystemProvisioner(Engine engine, WorkerSettings base) {
        this.engine = engine;
        this.base = base;
        this.streamWorkers = new StreamJanitorWorker(engine, base);
    }

    @Override
    public Optional<WorkerRunner> start(FleetRow worker, WorkerRunner.Owner owner) {
        if (worker.streamId() != null) {
            return switch (worker.name()) {
                case StreamWorkers.JANITOR -> Optional.of(streamWorkers.startJanitor(worker.streamId(),
                        worker.streamName(), worker.id(), owner));
                case StreamWorkers.VACUUM -> Optional.of(streamWorkers.startVacuum(worker.streamId(),
                        worker.streamName(), worker.id(), owner));
                default -> Optional.empty();
            };
        }
        return switch (worker.name()) {
            case SystemWorkerNames.CONSUMER_GROUP_JANITOR -> Optional.of(startSystemWorker(worker, owner,
                    BindingJanitor.POLL_RATE, new BindingJanitor(engine)));
            case SystemWorkerNames.METRICS_COLLECTOR -> Optional.of(startSystemWorker(worker, owner,
                    new SystemConfig(null, StoredSystemConfig.pollRate(worker.metadata())).resolvedMetricCollectorPollRate(),
                    new MetricsCollector(engine)));
            case SystemWorkerNames.ALERT_CHECKS -> Optional.of(startSystemWorker(worker, owner,
                    AlertChecks.pollRate(worker.metadata()), new AlertChecks(engine)));
            case SystemWorkerNames.SCHEDULE_PRODUCER -> Optional.of(startSystemWorker(worker, owner,
                    ScheduleProducer.POLL_RATE, new ScheduleProducer(engine)));
            default -> Optional.empty();
        };
    }

    private WorkerRunner startSystemWorker(FleetRow worker, WorkerRunner.Owner owner, Duration pollRate,
                                           WorkerTask task) {
        return WorkerRunner.start(engine, worker.id(), "worker " + worker.name() + " of the system", worker.name(),
                base.withPollRate(pollRate), task, owner);
    }
}
