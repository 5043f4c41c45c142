package io.sqlstreams.engine;

import java.util.List;
import java.util.Map;

import io.sqlstreams.Measurement;

/**
 * Where consume sessions add their counters (SQL0042–SQL0051) to the series retained on {@code __system.metrics}.
 * The writer lives in a package layered above the sessions, so the client connects it right after building its
 * engine.
 */
public final class SessionCounterStore {
    /** Adds amounts to counter series. */
    @FunctionalInterface
    public interface Writer {
        /**
         * In one transaction and one attempt: adds each measurement's value (an amount, not a total) to the larger of
         * its series' newest retained value and the series' entry in {@code floors}, records each sum as its
         * series' newest observation, and returns the sums by series key. A measurement's metadata is an
         * abandoned-routine detail merged into the series' own. Fails as a whole, recording nothing.
         */
        Map<String, Double> add(List<Measurement> amounts, Map<String, Double> floors);
    }

    private volatile Writer writer;

    /** Connects the writer; once, before the first session flushes. */
    public void connect(Writer connected) {
        writer = connected;
    }

    /** {@link Writer#add} on the connected writer. */
    public Map<String, Double> add(List<Measurement> amounts, Map<String, Double> floors) {
        Writer connected = writer;
        if (connected == null) {
            throw new IllegalStateException("no writer of session counters is connected to this client");
        }
        return connected.add(amounts, floors);
    }
}
