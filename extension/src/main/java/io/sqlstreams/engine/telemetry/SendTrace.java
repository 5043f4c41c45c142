package io.sqlstreams.engine.telemetry;

import java.util.List;
import java.util.Map;

import io.sqlstreams.ProduceResult;

/** One produce call as telemetry sees it: the headers its messages carry, then how it ended. */
public interface SendTrace {
    SendTrace NONE = new SendTrace() {
        @Override
        public Map<String, String> headers(Map<String, String> own) {
            return own;
        }

        @Override
        public void sent(List<ProduceResult> results) {
        }

        @Override
        public void failed(RuntimeException failure) {
        }
    };

    /** The headers a message of this call is stored with: its own, and the send's trace context when traced. */
    Map<String, String> headers(Map<String, String> own);

    /** The call wrote its messages (duplicates among them wrote nothing). */
    void sent(List<ProduceResult> results);

    /** The call failed; nothing it produced is visible. */
    void failed(RuntimeException failure);
}
