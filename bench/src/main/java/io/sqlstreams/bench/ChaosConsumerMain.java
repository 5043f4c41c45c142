package io.sqlstreams.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.SqlStreams;

/**
 * One consumer process of the chaos lab, started by {@link ConsumerProcess}: it consumes the lab's group through the
 * public API and records every handler run in the {@link RunLedger}. The handler works a few milliseconds and fails
 * as the {@link ChaosPlan} says for its message. A session that stops on its own is reported and started again, as
 * an application's supervisor would.
 *
 * <p>It tells the harness on stdout: {@code ready <session>}, {@code busy} (its first run is in the ledger),
 * {@code unrecorded <message id>} (a run whose start could not be written: it failed without doing anything),
 * {@code session-failed <failure>}, {@code stopped <counters>}. It stops gracefully when the harness writes {@code stop} on its stdin, and halts at
 * once when stdin closes (the harness is gone).
 *
 * <p>Arguments: JDBC URL, installation schema, ledger schema, stream, process name, plan seed.
 */
public final class ChaosConsumerMain {
    static final String READY = "ready";
    static final String BUSY = "busy";
    static final String UNRECORDED = "unrecorded";
    static final String SESSION_FAILED = "session-failed";
    static final String STOPPED = "stopped";
    static final String STOP = "stop";
    private static final Duration LIFETIME = Duration.ofHours(6);
    private static final Duration RETRY = Duration.ofSeconds(1);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final PrintStream OUT = System.out;

    private ChaosConsumerMain() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String schema = args[1];
        String ledgerSchema = args[2];
        String stream = args[3];
        String process = args[4];
        ChaosPlan plan = new ChaosPlan(Long.parseLong(args[5]));
        CountDownLatch stopRequested = watchStdin();
        HikariDataSource enginePool = pool(url, "engine", 10, false);
        HikariDataSource ledgerPool = pool(url, "ledger", 4, true);
        RunLedger ledger = new RunLedger(ledgerPool, ledgerSchema);
        AtomicBoolean busy = new AtomicBoolean();
        MessageHandler<BenchPayload> handler = payload -> handle(payload, plan, ledger, process, busy);
        retrying(() -> {
            ledgerPool.getConnection().close(); // the first ledger write must not pay for the pool's start
            return null;
        }, stopRequested);
        SqlStreams client = retrying(() -> SqlStreams.create(enginePool,
                ClientConfig.builder().schema(schema).build()), stopRequested);
        ConsumerSession session = start(client, stream, handler, stopRequested);
        while (!stopRequested.await(250, TimeUnit.MILLISECONDS)) {
            if (!session.isRunning()) {
                report(SESSION_FAILED + " " + session.id() + " " + session.failure().map(Throwable::toString)
                        .orElse("(no failure given)").replace('\n', ' '));
                session = start(client, stream, handler, stopRequested);
            }
        }
        session.close();
        report(STOPPED + " " + session.counters());
        enginePool.close();
        ledgerPool.close();
        System.exit(0);
    }

    /** One run: record its start, work a little, fail or not as planned, record its end. */
    private static void handle(BenchPayload payload, ChaosPlan plan, RunLedger ledger, String process,
                               AtomicBoolean busy) throws Exception {
        long startNanos = System.nanoTime();
        MessageMeta meta = MessageMeta.current();
        UUID run;
        try {
            run = ledger.start(meta, payload.id(), process, startNanos);
        } catch (SQLException e) {
            report(UNRECORDED + " " + meta.messageId());
            throw e;
        }
        if (!busy.getAndSet(true)) {
            report(BUSY);
        }
        Thread.sleep(ThreadLocalRandom.current().nextInt(1, 9));
        boolean fails = plan.message(payload.id()).behaviour().fails(meta.attempt());
        ledger.finish(run, !fails, startNanos);
        if (fails) {
            throw new IllegalStateException("planned failure of message " + payload.id() + " (attempt "
                    + meta.attempt() + ")");
        }
    }

    private static ConsumerSession start(SqlStreams client, String stream, MessageHandler<BenchPayload> handler,
                                         CountDownLatch stopRequested) throws InterruptedException {
        ConsumerSession session = retrying(() -> client.stream(stream, BenchPayload.class).consumer(ChaosGroup.GROUP)
                .register(ChaosGroup.declaration()).start(handler, ChaosGroup.options()), stopRequested);
        if (session.awaitStarted(START_TIMEOUT)) {
            report(READY + " " + session.id());
        }
        return session;
    }

    /** {@code action}'s value, tried once a second while the server is unavailable (it may be restarting). */
    private static <T> T retrying(Callable<T> action, CountDownLatch stopRequested)
            throws InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            try {
                return action.call();
            } catch (Exception e) {
                if (System.nanoTime() > deadline || stopRequested.getCount() == 0) {
                    throw new IllegalStateException("could not start consuming within " + START_TIMEOUT, e);
                }
                System.err.println("retrying the start: " + e);
            }
            Thread.sleep(RETRY.toMillis());
        }
    }

    /**
     * A pool whose connections carry the lab's application name. It connects lazily: the server may be restarting
     * as this process starts.
     *
     * @param failFast for the ledger: a write must fail within seconds rather than hang a handler past its timeout
     */
    private static HikariDataSource pool(String url, String name, int size, boolean failFast) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("chaos-" + name);
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(size);
        config.setInitializationFailTimeout(-1);
        config.addDataSourceProperty("ApplicationName", ChaosGroup.APPLICATION_NAME);
        if (failFast) {
            config.setConnectionTimeout(2_000);
            config.addDataSourceProperty("connectTimeout", "2");
            config.addDataSourceProperty("socketTimeout", "2");
        }
        return new HikariDataSource(config);
    }

    /**
     * Reads stdin: {@code stop} asks for a graceful stop (the returned latch opens); end of input means the harness
     * is gone, and the process halts. A lifetime limit halts it too, should the harness hang.
     */
    private static CountDownLatch watchStdin() {
        CountDownLatch stop = new CountDownLatch(1);
        Thread watcher = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.trim().equals(STOP)) {
                        stop.countDown();
                    }
                }
            } catch (IOException gone) {
                // the same as end of input
            }
            Runtime.getRuntime().halt(3);
        }, "harness-watcher");
        watcher.setDaemon(true);
        watcher.start();
        Thread limit = new Thread(() -> {
            try {
                Thread.sleep(LIFETIME.toMillis());
            } catch (InterruptedException ignored) {
                // halt anyway
            }
            Runtime.getRuntime().halt(4);
        }, "lifetime-limit");
        limit.setDaemon(true);
        limit.start();
        return stop;
    }

    private static synchronized void report(String line) {
        OUT.println(line);
        OUT.flush();
    }
}
