package io.sqlstreams.engine.telemetry;

import java.util.List;
import java.util.Map;

import io.sqlstreams.ProduceResult;

/** A produce call that is counted, not traced: no span was current, or the client has no tracer. */
final class CountedSend implements SendTrace {
    private final MessagingMeters meters;
    private final String stream;

    CountedSend(MessagingMeters meters, String stream) {
        this.meters = meters;
        this.stream = stream;
    }

    @Override
    public Map<String, String> headers(Map<String, String> own) {
        return own;
    }

    @Override
    public void sent(List<ProduceResult> results) {
        long written = results.stream().filter(result -> !result.duplicate()).count();
        if (written > 0) {
            meters.sent(stream, written);
        }
    }

    @Override
    public void failed(RuntimeException failure) {
    }
}
