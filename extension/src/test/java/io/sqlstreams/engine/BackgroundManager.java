package io.sqlstreams.engine;

import static org.awaitility.Awaitility.await;

import java.time.Duration;

import io.sqlstreams.ManagerStatus;
import io.sqlstreams.engine.client.EngineClient;

/**
 * A client's system manager running on a thread of its own for one test, stopped and joined when closed. The start
 * returns once the manager takes part, so a close right after it finds the run to stop (a stop before the run began
 * would be missed, and the run would wait for another one). Not on a shared pool: with few processors one pool
 * thread would run the managers of several clients one after the other instead of side by side.
 */
public final class BackgroundManager implements AutoCloseable {
    private static final Duration JOINING = Duration.ofSeconds(30);

    private final EngineClient client;
    private final Thread run;

    private BackgroundManager(EngineClient client) {
        this.client = client;
        this.run = new Thread(() -> client.manager().run(), "background-manager");
        run.setDaemon(true);
        run.start();
        await().atMost(JOINING).until(() -> client.manager().status().state() != ManagerStatus.State.STOPPED);
    }

    public static BackgroundManager start(EngineClient client) {
        return new BackgroundManager(client);
    }

    @Override
    public void close() {
        client.manager().stop();
        try {
            run.join();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
