package io.sqlstreams.engine.telemetry;

import java.time.Duration;

/** A handler run that is measured: counted when it starts, its duration recorded when it ends. */
final class MeteredProcess implements ProcessTrace {
    private final MessagingMeters meters;
    private final String stream;
    private final String group;
    private final long startedNanos = System.nanoTime();

    MeteredProcess(MessagingMeters meters, String stream, String group) {
        this.meters = meters;
        this.stream = stream;
        this.group = group;
        meters.consumed(stream, group);
    }

    @Override
    public Current makeCurrent() {
        return Current.NOTHING;
    }

    @Override
    public void ended(RunEnd end, Throwable failure) {
        String errorType = end.failed() && failure != null ? failure.getClass().getName() : null;
        meters.processed(stream, group, Duration.ofNanos(System.nanoTime() - startedNanos), errorType);
    }
}
