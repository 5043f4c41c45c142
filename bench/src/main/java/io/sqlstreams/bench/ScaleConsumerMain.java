package io.sqlstreams.bench;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.SqlStreams;

/**
 * One consumer process of {@code bench scale} (BENCHMARKS.md #9), started by {@link ConsumerProcess}: a client of its
 * own through the public API that runs the sessions the harness asks for, any number of groups at once, one session
 * each. Nothing but PostgreSQL rows passes between consumer processes: the engine's, and the tables the handlers
 * write.
 *
 * <p>Commands on stdin, one a line, run in order:
 * <ul>
 *   <li>{@code consume <stream> <group> noop <id table>}: a handler that only keeps each message id in memory; the
 *       ids go to the {@link IdTable} when the group finishes ({@link SustainedScenario#CONSUME}'s options);</li>
 *   <li>{@code consume <stream> <group> insert <work table> <lock space> [<form>]}: a handler that inserts one row
 *       per message into the group's {@link WorkTable} ({@link RealisticShape#CONSUME}'s options), in the
 *       {@link HandlerForm} the last field names ({@code plain}, {@code transactional} or {@code batch}; plain when
 *       absent);</li>
 *   <li>{@code finish <group>}: stops the group's session gracefully (and writes its ids);</li>
 *   <li>{@code stop}: finishes every group and exits.</li>
 * </ul>
 * Reports on stdout: {@code ready <process>}; {@code started <group> <epoch µs>} once the session's claim loop
 * runs; {@code handled <group> <handler calls> <epoch µs of the last>} every 250 ms while it runs;
 * {@code finished <group> <handler calls> <epoch µs of the last> <counters>}; {@code failed <group> <why>} for a
 * command that failed; {@code session-failed <group> <failure>} for a session that stopped on its own.
 *
 * <p>Arguments: JDBC URL, installation schema, process name.
 */
public final class ScaleConsumerMain {
    static final String APPLICATION_NAME = ServerActivity.APPLICATION_PREFIX + "-consumer";
    static final String STARTED = "started";
    static final String HANDLED = "handled";
    static final String FINISHED = "finished";
    static final String FAILED = "failed";
    /** Handled ids one handler thread is likely to see, to size its arrays (they grow past it). */
    private static final int EXPECTED_PER_THREAD = 1 << 16;
    private static final Duration REPORT_EVERY = Duration.ofMillis(250);

    /** One group consuming here: its session, what its handler saw, and where its ids go (noop) if anywhere. */
    private record Running(GroupSessions sessions, HandledLog log, IdTable ids) {

        /** {@code <handler calls> <epoch µs of the last>}. */
        String progress() {
            long count = log.count();
            return count + " " + (count == 0 ? 0 : BenchClock.micros(log.lastNanos()));
        }
    }

    private final SqlStreams client;
    private final HikariDataSource workPool;
    private final String process;
    private final Map<String, Running> groups = new ConcurrentHashMap<>();
    private final Set<String> failedGroups = ConcurrentHashMap.newKeySet();

    private ScaleConsumerMain(SqlStreams client, HikariDataSource workPool, String process) {
        this.client = client;
        this.workPool = workPool;
        this.process = process;
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String schema = args[1];
        String process = args[2];
        BlockingQueue<String> commands = new LinkedBlockingQueue<>();
        HarnessLink.listen(commands::add);
        HikariDataSource enginePool = new HikariDataSource(HarnessLink.pool(url, "scale-engine", 10,
                APPLICATION_NAME));
        HikariDataSource workPool = new HikariDataSource(workPool(url));
        ScaleConsumerMain consumer = new ScaleConsumerMain(SqlStreams.create(enginePool,
                ClientConfig.builder().schema(schema).build()), workPool, process);
        Thread reporter = new Thread(consumer::reportProgress, "scale-progress");
        reporter.setDaemon(true);
        reporter.start();
        HarnessLink.report(HarnessLink.READY + " " + process);
        for (String command = commands.take(); !command.equals(HarnessLink.STOP); command = commands.take()) {
            consumer.run(command.split(" "));
        }
        List.copyOf(consumer.groups.keySet()).forEach(group -> consumer.run(new String[] {"finish", group}));
        HarnessLink.report(HarnessLink.STOPPED + " " + process);
        workPool.close();
        enginePool.close();
        System.exit(0);
    }

    /** The handlers' own connections: a few, shared by every handler thread, as an application's pool would be. */
    private static HikariConfig workPool(String url) {
        HikariConfig config = HarnessLink.pool(url, "scale-work", 4, APPLICATION_NAME);
        config.setMinimumIdle(1);
        BenchServer.DRIVER_PROPERTIES.forEach(config::addDataSourceProperty);
        return config;
    }

    private void run(String[] command) {
        String group = command[0].equals("consume") ? command[2] : command[1];
        try {
            switch (command[0]) {
                case "consume" -> consume(command);
                case "finish" -> finish(group);
                default -> throw new IllegalArgumentException("unknown command " + String.join(" ", command));
            }
        } catch (Exception e) {
            HarnessLink.report(FAILED + " " + group + " " + e.toString().replace('\n', ' '));
        }
    }

    /**
     * {@code consume <stream> <group> noop <id table>} or
     * {@code consume <stream> <group> insert <table> <space> [<form>]}.
     */
    private void consume(String[] command) throws InterruptedException {
        String group = command[2];
        HandledLog log = new HandledLog(EXPECTED_PER_THREAD, false);
        Function<ConsumerInstance<BenchPayload>, ConsumerSession> starter;
        IdTable ids = null;
        if (command[3].equals("noop")) {
            ids = new IdTable(command[4]);
            MessageHandler<BenchPayload> handler = GroupDrain.recordingIds(log);
            starter = instance -> instance.start(handler, SustainedScenario.CONSUME);
        } else {
            HandlerForm.Work work = new HandlerForm.Work(new WorkTable(command[4], Integer.parseInt(command[5])),
                    workPool, process, log);
            HandlerForm form = HandlerForm.at(command, 6);
            starter = instance -> form.start(instance, work);
        }
        GroupSessions sessions = GroupSessions.start(List.of(client), command[1], group, ConsumerConfig.defaults(),
                starter);
        groups.put(group, new Running(sessions, log, ids));
        HarnessLink.report(STARTED + " " + group + " " + BenchClock.micros(sessions.firstStartedNanos()));
    }

    private void finish(String group) throws Exception {
        Running running = groups.remove(group);
        if (running == null) {
            throw new IllegalStateException("no group " + group + " is consuming here");
        }
        running.sessions().close();
        if (running.ids() != null) {
            running.ids().append(workPool, process, running.log().sortedIds());
        }
        HarnessLink.report(FINISHED + " " + group + " " + running.progress() + " "
                + running.sessions().describeCounters().replace(' ', ','));
    }

    /** Every 250 ms, each running group's progress; a session that stopped on its own is reported once. */
    private void reportProgress() {
        while (true) {
            try {
                Thread.sleep(REPORT_EVERY.toMillis());
            } catch (InterruptedException e) {
                return;
            }
            groups.forEach((group, running) -> {
                HarnessLink.report(HANDLED + " " + group + " " + running.progress());
                try {
                    running.sessions().checkRunning();
                } catch (IllegalStateException stopped) {
                    if (failedGroups.add(group)) {
                        HarnessLink.report(HarnessLink.SESSION_FAILED + " " + group + " "
                                + stopped.getMessage().replace('\n', ' '));
                    }
                }
            });
        }
    }
}
