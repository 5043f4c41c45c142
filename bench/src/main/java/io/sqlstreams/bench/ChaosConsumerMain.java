package io.sqlstreams.bench;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.SqlStreams;

/**
 * One consumer process of the chaos lab, started by {@link ConsumerProcess}: it consumes the lab's group through the
 * public API with a {@link ChaosHandler}, which records every handler run in the {@link RunLedger}. A session that
 * stops on its own is reported and started again, as an application's supervisor would.
 *
 * <p>It tells the harness on stdout ({@link HarnessLink}): {@code ready <session>}, {@code session-failed <failure>},
 * {@code stopped <counters>}, and its handler's lines. It stops gracefully when the harness writes {@code stop} on
 * its stdin, and halts at once when stdin closes (the harness is gone).
 *
 * <p>Arguments: JDBC URL, installation schema, ledger schema, stream, process name, plan seed, handler mode
 * ({@link HandlerMode#flagValue()}).
 */
public final class ChaosConsumerMain {
    private static final Duration RETRY = Duration.ofSeconds(1);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private ChaosConsumerMain() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String schema = args[1];
        String ledgerSchema = args[2];
        String stream = args[3];
        String process = args[4];
        ChaosPlan plan = new ChaosPlan(Long.parseLong(args[5]));
        CountDownLatch stopRequested = new CountDownLatch(1);
        HarnessLink.listen(command -> {
            if (command.equals(HarnessLink.STOP)) {
                stopRequested.countDown();
            }
        });
        HikariDataSource enginePool = pool(url, "engine", 10, false);
        HikariDataSource ledgerPool = pool(url, "ledger", 4, true);
        RunLedger ledger = new RunLedger(ledgerPool, ledgerSchema);
        ChaosHandler handler = new ChaosHandler(plan, ledger, process, HandlerMode.parse(args[6], "handler mode"));
        retrying(() -> {
            ledgerPool.getConnection().close(); // the first ledger write must not pay for the pool's start
            return null;
        }, stopRequested);
        SqlStreams client = retrying(() -> SqlStreams.create(enginePool,
                ClientConfig.builder().schema(schema).build()), stopRequested);
        ConsumerSession session = start(client, stream, handler, stopRequested);
        while (!stopRequested.await(250, TimeUnit.MILLISECONDS)) {
            if (!session.isRunning()) {
                HarnessLink.report(HarnessLink.SESSION_FAILED + " " + session.id() + " " + session.failure()
                        .map(Throwable::toString).orElse("(no failure given)").replace('\n', ' '));
                session = start(client, stream, handler, stopRequested);
            }
        }
        session.close();
        HarnessLink.report(HarnessLink.STOPPED + " " + session.counters());
        enginePool.close();
        ledgerPool.close();
        System.exit(0);
    }

    private static ConsumerSession start(SqlStreams client, String stream, ChaosHandler handler,
                                         CountDownLatch stopRequested) throws InterruptedException {
        ConsumerSession session = retrying(() -> handler.start(client.stream(stream, BenchPayload.class)
                .consumer(ChaosGroup.GROUP).register(ChaosGroup.declaration())), stopRequested);
        if (session.awaitStarted(START_TIMEOUT)) {
            HarnessLink.report(HarnessLink.READY + " " + session.id());
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
     * A pool whose connections carry the lab's application name, connecting lazily (see {@link HarnessLink#pool}).
     *
     * @param failFast for the ledger: a write must fail within seconds rather than hang a handler past its timeout
     */
    private static HikariDataSource pool(String url, String name, int size, boolean failFast) {
        HikariConfig config = HarnessLink.pool(url, "chaos-" + name, size, ChaosGroup.APPLICATION_NAME);
        if (failFast) {
            config.setConnectionTimeout(2_000);
            config.addDataSourceProperty("connectTimeout", "2");
            config.addDataSourceProperty("socketTimeout", "2");
        }
        return new HikariDataSource(config);
    }
}
