package io.sqlstreams.engine;

import java.util.concurrent.CompletableFuture;

import io.sqlstreams.engine.client.EngineClient;

/** A client's system manager running on a background thread for one test, stopped and joined when closed. */
public final class BackgroundManager implements AutoCloseable {
    private final EngineClient client;
    private final CompletableFuture<Void> run;

    private BackgroundManager(EngineClient client) {
        this.client = client;
        this.run = CompletableFuture.runAsync(() -> client.manager().run());
    }

    public static BackgroundManager start(EngineClient client) {
        return new BackgroundManager(client);
    }

    @Override
    public void close() {
        client.manager().stop();
        run.join();
    }
}
