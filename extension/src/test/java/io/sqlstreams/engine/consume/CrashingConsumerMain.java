package io.sqlstreams.engine.consume;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ResourceBundle;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.EngineThreads;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;

/**
 * A consumer process for {@link CrashRecoveryTest} to kill: it registers the group, consumes, and reports each
 * handler start on stdout ({@code started <message id> <payload n>}). A handler whose payload is the poison (or
 * every handler, without one) blocks for good, so the test can kill the JVM mid-range; the others report
 * {@code handled <message id>} and succeed.
 *
 * <p>Arguments: JDBC URL, installation schema, stream, group, the poison payload number (-1 for none), and
 * optionally {@link Handlers#STALLED} or {@link Handlers#RUNNING} for a test of the exception path: the child
 * declares {@link #exceptionPathDeclaration()} and its session uses {@link #exceptionPathOptions()}, and a stalled
 * child's handler executor never runs a task, so it claims and then waits for the kill before any handler started.
 */
public final class CrashingConsumerMain {
    private static final PrintStream OUT = System.out;

    private CrashingConsumerMain() {
    }

    /** The group's declaration, shared with the test JVM: handler timeout 3 s (room for a busy machine to kill the
     * child before its own lease runs out), quick retries. */
    static ConsumerConfig declaration() {
        return ConsumeFixtures.quickRetries(3, Duration.ofSeconds(3));
    }

    /**
     * The session options, shared with the test JVM: fast polls and margins, ranges of 10, all of a range
     * started at once (with fastSession's 200 ms queue margin a cold JVM's serial handlers would let the
     * start guard mark the range stale, SQL0105, and the process would reclaim its own range). A 4 s queue
     * margin keeps the child's lease (7.3 s) well beyond the time a busy machine takes to kill it.
     */
    static ConsumeOptions.Builder options() {
        return ConsumeFixtures.fastSession().batchLimit(10).messageConcurrency(10).queueMargin(Duration.ofSeconds(4));
    }

    /** The declaration of an exception-path test: {@link #declaration()} with one retry, so one crash spends it. */
    static ConsumerConfig exceptionPathDeclaration() {
        return ConsumeFixtures.quickRetries(1, Duration.ofSeconds(3));
    }

    /**
     * The options of a child in an exception-path test: a 1 s queue margin, so its exception leases (4.2 s) expire
     * sooner; still well beyond the time a busy machine takes to kill it.
     */
    static ConsumeOptions.Builder exceptionPathOptions() {
        return options().queueMargin(Duration.ofSeconds(1));
    }

    /** How an exception-path child runs its handlers. */
    enum Handlers {
        RUNNING, STALLED
    }

    public static void main(String[] args) throws Exception {
        dieWithParent();
        String url = args[0];
        String schema = args[1];
        String stream = args[2];
        String group = args[3];
        long poison = Long.parseLong(args[4]);
        Handlers handlers = args.length > 5 ? Handlers.valueOf(args[5]) : null;
        HikariConfig pool = new HikariConfig();
        pool.setJdbcUrl(url);
        pool.setMaximumPoolSize(6);
        pool.setPoolName("crashing-consumer");
        HikariDataSource dataSource = new HikariDataSource(pool);
        EngineEnvironment standalone = EngineEnvironment.standalone();
        EngineEnvironment environment = handlers != Handlers.STALLED ? standalone : new EngineEnvironment(
                standalone.threadFactory(), stalledExecutor(), standalone.clock(), standalone.sleeper());
        EngineClient client = EngineClient.create(dataSource,
                ClientConfig.builder().schema(schema).logger(new StderrLogger()).build(), environment);
        ConsumerInstance<Numbered> instance = client.stream(stream, Numbered.class).consumer(group)
                .register(handlers == null ? declaration() : exceptionPathDeclaration());
        ConsumerSession session = instance.start(message -> {
            MessageMeta meta = MessageMeta.current();
            report("started " + meta.messageId() + " " + message.n());
            if (poison < 0 || message.n() == poison) {
                blockForever();
            }
            report("handled " + meta.messageId());
        }, (handlers == null ? options() : exceptionPathOptions()).build());
        session.awaitStarted(Duration.ofSeconds(30));
        report("ready " + session.id());
        blockForever();
    }

    /**
     * Never outlive the test: halt when the parent closes our stdin (it exited or was killed) and, as a last
     * resort, after two minutes.
     */
    private static void dieWithParent() {
        Thread watcher = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // nothing is ever sent; EOF means the parent is gone
                }
            } catch (java.io.IOException gone) {
                // same
            }
            Runtime.getRuntime().halt(3);
        }, "parent-watcher");
        watcher.setDaemon(true);
        watcher.start();
        Thread deadline = new Thread(() -> {
            try {
                Thread.sleep(Duration.ofMinutes(2).toMillis());
            } catch (InterruptedException ignored) {
                // halt anyway
            }
            Runtime.getRuntime().halt(4);
        }, "lifetime-limit");
        deadline.setDaemon(true);
        deadline.start();
    }

    /** An executor whose one thread is taken for good by its first task: every later task waits in its queue. */
    private static ExecutorService stalledExecutor() {
        ExecutorService executor = Executors.newSingleThreadExecutor(EngineThreads.daemons("stalled-"));
        executor.execute(CrashingConsumerMain::blockForever);
        return executor;
    }

    private static synchronized void report(String line) {
        OUT.println(line);
        OUT.flush();
    }

    /** Blocks until the process is killed: interrupts (the handler timeout) are ignored, as a hung call would. */
    private static void blockForever() {
        while (true) {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException ignored) {
                // a hung handler does not notice
            }
        }
    }

    /** Diagnostics to stderr, which the test keeps in a file. */
    private static final class StderrLogger implements System.Logger {
        @Override
        public String getName() {
            return "crashing-consumer";
        }

        @Override
        public boolean isLoggable(Level level) {
            return level.getSeverity() >= Level.INFO.getSeverity();
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
            System.err.println(level + " " + message + (thrown == null ? "" : " " + thrown));
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            System.err.println(level + " " + (params == null || params.length == 0 ? format
                    : java.text.MessageFormat.format(format, params)));
        }

        @Override
        public void log(Level level, Supplier<String> message) {
            if (isLoggable(level)) {
                System.err.println(level + " " + message.get());
            }
        }
    }
}
