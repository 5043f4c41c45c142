package io.sqlstreams.engine.telemetry;

import java.util.List;
import java.util.Map;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.LongCounter;
import io.sqlstreams.ProduceResult;

/** A produce call made with no span current: counted in {@code messaging.client.sent.messages}, not traced. */
final class CountedSend implements SendTrace {
    private final LongCounter sent;
    private final Attributes attributes;

    CountedSend(LongCounter sent, Attributes attributes) {
        this.sent = sent;
        this.attributes = attributes;
    }

    @Override
    public Map<String, String> headers(Map<String, String> own) {
        return own;
    }

    @Override
    public void sent(List<ProduceResult> results) {
        long written = results.stream().filter(result -> !result.duplicate()).count();
        if (written > 0) {
            sent.add(written, attributes);
        }
    }

    @Override
    public void failed(RuntimeException failure) {
    }
}
