package io.sqlstreams.bench;

import java.util.List;

import io.sqlstreams.ProduceResult;

/** What one producing thread saw: each call's latency and each result. Used by its own thread only. */
final class CallerLog {
    final LongList latencyNanos;
    final LongList acknowledgedIds;
    long duplicates;

    /** @param expectedCalls a guess at the calls this thread will make, to size its arrays */
    CallerLog(int expectedCalls, int messagesPerCall) {
        latencyNanos = new LongList(expectedCalls);
        acknowledgedIds = new LongList(expectedCalls * messagesPerCall);
    }

    void record(long nanos, List<ProduceResult> results) {
        latencyNanos.add(nanos);
        for (ProduceResult result : results) {
            if (result.duplicate()) {
                duplicates++;
            } else {
                acknowledgedIds.add(result.id());
            }
        }
    }

    long messages() {
        return acknowledgedIds.size() + duplicates;
    }
}
