package io.sqlstreams.jakarta;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import javax.sql.DataSource;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.Code;
import io.sqlstreams.ManagerStatus;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.EngineThreads;
import io.sqlstreams.engine.HostTransactions;
import io.sqlstreams.engine.HostedClient;
import io.sqlstreams.engine.Sleeper;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.jakarta.config.GlobalSettings;
import io.sqlstreams.jakarta.config.GroupAddress;
import io.sqlstreams.jakarta.config.GroupSettings;
import io.sqlstreams.jakarta.config.ResolvedSettings;
import io.sqlstreams.jakarta.config.ScheduleSettings;
import io.sqlstreams.jakarta.telemetry.ServerTelemetry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.context.control.RequestContextController;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.ObserverMethod;
import jakarta.inject.Inject;

/**
 * The application's sessions: at start the configured schedules and every enabled group's declaration are registered (a failure fails the
 * deployment before any session runs), then one session per group starts; a monitor restarts failed sessions;
 * stop drains them all at once, each within its ShutdownTimeout. In a web module the contributed servlet listener
 * starts and stops it (JNDI is not available to CDI lifecycle observers on every server); elsewhere the
 * application scope's initialisation and destruction do.
 */
@ApplicationScoped
public class SqlStreamsRuntime {
    private static final long MONITOR_PERIOD_MS = 1000;

    /** The one clock of the deployment's engine, its supervisors and the states they report. */
    private final Clock clock = Clock.systemUTC();

    @Inject
    Discovery discovery;
    @Inject
    ContainerResources resources;
    @Inject
    Instance<RequestContextController> requestContexts;

    private final Map<GroupAddress, GroupSupervisor<?>> supervisors = new LinkedHashMap<>();
    private final Map<GroupAddress, GroupState> idle = new LinkedHashMap<>();
    private final Map<GroupAddress, Supplier<GroupState>> channels = new LinkedHashMap<>();
    private final List<Runnable> channelStarts = new ArrayList<>();
    private final List<Runnable> channelStops = new ArrayList<>();
    private DataSource dataSource;
    private HostTransactions observerTransactions;
    private ThreadFactory threads;
    private HostedClient client;
    private ScheduledExecutorService monitor;
    private boolean started;

    void initialized(@Observes @Initialized(ApplicationScoped.class) Object payload) {
        if (!WebModule.servletListenerStarts(payload)) {
            start();
        }
    }

    void destroying(@Observes @BeforeDestroyed(ApplicationScoped.class) Object payload) {
        stop();
    }

    /**
     * Registers every enabled group and starts its session, then lets the incoming Reactive Messaging channels start
     * theirs; idempotent.
     */
    public void start() {
        List<Runnable> startingChannels;
        synchronized (this) {
            if (started) {
                return;
            }
            startGroups();
            started = true;
            startingChannels = new ArrayList<>(channelStarts);
            channelStarts.clear();
        }
        startingChannels.forEach(Runnable::run);
    }

    private void startGroups() {
        ResolvedSettings settings = discovery.settings();
        if (settings == null || !settings.problems().isEmpty()) {
            throw new IllegalStateException(Code.SQL0137.id() + " sqlstreams cannot start: the deployment has"
                    + " configuration problems");
        }
        registerSchedules(settings.schedules());
        for (ObservedGroup group : discovery.groups()) {
            GroupSettings groupSettings = settings.groups().get(group.address());
            if (!groupSettings.enabled()) {
                idle.put(group.address(), new GroupState(GroupState.Status.DISABLED, 0, "enabled=false on this"
                        + " server", clock.instant()));
            }
        }
        if (discovery.groups().size() == idle.size()) {
            return;
        }
        HostedClient client = hostedClient();
        for (ObservedGroup group : discovery.groups()) {
            GroupSettings groupSettings = settings.groups().get(group.address());
            if (groupSettings.enabled()) {
                GroupSupervisor<?> supervisor = supervisor(group, groupSettings);
                supervisor.register(client);
                supervisors.put(group.address(), supervisor);
            }
        }
        supervisors.values().forEach(GroupSupervisor::start);
        monitor = new EngineThreads(threads).scheduler("sqlstreams-monitor");
        monitor.scheduleWithFixedDelay(() -> supervisors.values().forEach(GroupSupervisor::check), MONITOR_PERIOD_MS,
                MONITOR_PERIOD_MS, TimeUnit.MILLISECONDS);
        client.diagnostics().event(Code.SQL0131, "sqlstreams started " + supervisors.size() + " consumer group session(s)"
                + (idle.isEmpty() ? "" : "; disabled here: " + idle.keySet()));
    }

    /** Declares the configured schedules, registering a stream that does not exist yet with the defaults. */
    private void registerSchedules(List<ScheduleSettings> schedules) {
        if (schedules.isEmpty()) {
            return;
        }
        HostedClient scheduling = hostedClient();
        for (ScheduleSettings schedule : schedules) {
            StreamRegistration.ifAbsent(scheduling.stream(schedule.stream(), schedule.payload().getClass()));
            scheduling.scheduler(schedule.name()).register(schedule.stream(), schedule.expression(),
                    schedule.payload(), schedule.config());
        }
    }

    /**
     * The application's client over the configured data source, created on first use: by the sessions' start,
     * or earlier by an injected producer.
     */
    public SqlStreams client() {
        return hostedClient();
    }

    /** The same client, with what only this integration uses: hosted sessions and enlisted producers. */
    synchronized HostedClient hostedClient() {
        if (client == null) {
            GlobalSettings global = discovery.settings().global();
            dataSource = resource("sqlstreams.datasource", () -> resources.dataSource(global.dataSourceJndiName()));
            threads = resource("the claim loops' thread factory", resources::threadFactory);
            ExecutorService defaultHandlers = resource("the default handler executor",
                    () -> resources.executor(GroupSettings.DEFAULT_EXECUTOR_JNDI_NAME));
            ClientConfig.Builder config = ClientConfig.builder().schema(global.schema())
                    .disableManager(!global.managerEnabled()).disableWakeup(!global.wakeupEnabled());
            client = EngineClient.create(dataSource, ServerTelemetry.tracing(config, global.telemetryEnabled()).build(),
                    new EngineEnvironment(threads, defaultHandlers, clock, Sleeper.SYSTEM),
                    ServerTelemetry.meters(global.telemetryEnabled()));
        }
        return client;
    }

    /** A server resource the configuration names; a missing one is SQL0138. */
    static <R> R resource(String what, Supplier<R> lookup) {
        try {
            return lookup.get();
        } catch (IllegalStateException missing) {
            throw new SqlStreamsException(Code.SQL0138, what + ": " + missing.getMessage(), missing);
        }
    }

    /** The configured data source; the client is created if it was not yet. */
    public synchronized DataSource dataSource() {
        client();
        return dataSource;
    }

    @SuppressWarnings("unchecked")
    private <T> GroupSupervisor<T> supervisor(ObservedGroup group, GroupSettings settings) {
        ExecutorService handlers = resource("the executor of " + group.describe(),
                () -> resources.executor(settings.executorJndiName()));
        ObserverHandler<T> handler = new ObserverHandler<>((ObserverMethod<T>) group.observer(), requestContexts);
        return new GroupSupervisor<>(group, settings, (Class<T>) group.payloadType(), handler,
                group.transactional() ? observerTransactions() : null, handlers, clock);
    }

    /**
     * The JTA transactions transactional observers run in (the deployment's validation proved that their writes and
     * the outcome rows share one PostgreSQL session in them).
     */
    private HostTransactions observerTransactions() {
        if (observerTransactions == null) {
            observerTransactions = resource("the JTA transactions of transactional observers",
                    () -> resources.transactions(dataSource));
        }
        return observerTransactions;
    }

    /**
     * Stops the Reactive Messaging channels first (their handlers may still produce), then drains every session at
     * once, each on a thread of the server's managed thread factory, then closes the client (its part in the system
     * manager and its wake-up); idempotent.
     */
    public void stop() {
        List<Runnable> stoppingChannels;
        synchronized (this) {
            stoppingChannels = new ArrayList<>(channelStops);
            channelStops.clear();
            channelStarts.clear();
        }
        try {
            stoppingChannels.forEach(Runnable::run);
        } finally {
            drainSessionsThenClose();
        }
    }

    private void drainSessionsThenClose() {
        List<GroupSupervisor<?>> running;
        ThreadFactory drainThreads;
        synchronized (this) {
            if (monitor != null) {
                monitor.shutdownNow();
            }
            running = new ArrayList<>(supervisors.values());
            drainThreads = threads;
        }
        List<Thread> draining = new ArrayList<>();
        for (GroupSupervisor<?> supervisor : running) {
            Thread drain;
            try {
                drain = new EngineThreads(drainThreads)
                        .thread("sqlstreams-drain-" + supervisor.group().address().group(), supervisor::stop);
            } catch (IllegalStateException stopping) {
                // a server that no longer hands out threads to the stopping application: drain here instead
                supervisor.stop();
                continue;
            }
            drain.start();
            draining.add(drain);
        }
        for (Thread drain : draining) {
            try {
                drain.join();
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        HostedClient closing;
        synchronized (this) {
            closing = client;
        }
        if (closing != null) {
            closing.close();
        }
    }

    /**
     * Runs {@code starting} once the groups' sessions have started (at once if they have): an incoming channel's
     * session starts at the same moment as theirs, never while the application is still deploying. Dropped if the
     * application stops first.
     */
    public void afterSessionsStart(Runnable starting) {
        synchronized (this) {
            if (!started) {
                channelStarts.add(starting);
                return;
            }
        }
        starting.run();
    }

    /** Runs {@code stopping} when the application stops, before its sessions drain and its client closes. */
    public synchronized void beforeSessionsStop(Runnable stopping) {
        channelStops.add(stopping);
    }

    /** Reports the group of an incoming Reactive Messaging channel beside the observed groups, as {@code state} says. */
    public synchronized void hostChannel(GroupAddress address, Supplier<GroupState> state) {
        channels.put(address, state);
    }

    /** Every observed group's state on this instance, in discovery order, then each channel's group. */
    /** The deployment's clock, for what the integration stamps beside the engine. */
    public Clock clock() {
        return clock;
    }

    public synchronized Map<GroupAddress, GroupState> states() {
        Map<GroupAddress, GroupState> states = new LinkedHashMap<>();
        for (ObservedGroup group : discovery.groups()) {
            GroupSupervisor<?> supervisor = supervisors.get(group.address());
            states.put(group.address(), supervisor != null ? supervisor.state()
                    : idle.getOrDefault(group.address(), new GroupState(GroupState.Status.NOT_STARTED, 0, null,
                    clock.instant())));
        }
        channels.forEach((address, state) -> states.put(address, state.get()));
        return states;
    }

    /**
     * How this application's part in the system manager stands, as readiness reports it: its state, with the
     * number of workers it runs while it holds the manager and the error it stopped on while it restarts.
     */
    public String managerState() {
        HostedClient known;
        synchronized (this) {
            known = client;
        }
        if (known == null) {
            return ManagerStatus.State.STOPPED.name();
        }
        ManagerStatus status = known.manager().status();
        return switch (status.state()) {
            case HOLDING -> "HOLDING, running " + status.workersRunning() + " worker(s)";
            case RESTARTING -> "RESTARTING after " + status.lastError().orElse("an error");
            default -> status.state().name();
        };
    }

    public synchronized boolean started() {
        return started;
    }

    /** Whether PostgreSQL answers within {@code timeoutSeconds}; false before the data source is known. */
    public boolean databaseReachable(int timeoutSeconds) {
        DataSource known;
        synchronized (this) {
            known = dataSource;
        }
        if (known == null) {
            return false;
        }
        try (Connection connection = known.getConnection()) {
            return connection.isValid(timeoutSeconds);
        } catch (SQLException unreachable) {
            return false;
        }
    }
}
