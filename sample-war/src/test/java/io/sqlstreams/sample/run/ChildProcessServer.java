package io.sqlstreams.sample.run;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** A {@link SampleServer} that is a child process of the launcher: its life and its graceful stop. */
abstract class ChildProcessServer implements SampleServer {
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    private final Process process;

    ChildProcessServer(Process process) {
        this.process = process;
    }

    /** Asks the server to stop gracefully; {@link #stop()} then waits for the process to exit. */
    abstract void requestStop() throws InterruptedException;

    @Override
    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public int exitValue() {
        return process.exitValue();
    }

    @Override
    public int awaitExit() throws InterruptedException {
        return process.waitFor();
    }

    /** The graceful stop, then the process ended forcibly if it has not exited within a minute. */
    @Override
    public void stop() {
        try {
            if (process.isAlive()) {
                requestStop();
            }
            if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    Process process() {
        return process;
    }
}
