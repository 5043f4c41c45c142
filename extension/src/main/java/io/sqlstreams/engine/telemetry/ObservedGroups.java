package io.sqlstreams.engine.telemetry;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import io.sqlstreams.Measurement;
import io.sqlstreams.MetricDefinition;
import io.sqlstreams.engine.Diagnostics;

/**
 * The consumer groups whose gauges a client reports: a group is handed to the meters when its first session
 * starts and taken back when its last one stops, however many of the client's sessions consume it.
 */
final class ObservedGroups {
    private final MessagingMeters meters;
    private final Diagnostics diagnostics;
    private final Map<GroupKey, Observed> observed = new HashMap<>();

    ObservedGroups(MessagingMeters meters, Diagnostics diagnostics) {
        this.meters = meters;
        this.diagnostics = diagnostics;
    }

    synchronized GroupObservation observe(String stream, String group, List<MetricDefinition> gauges,
                                          Supplier<List<Measurement>> read) {
        GroupKey key = new GroupKey(stream, group);
        Observed entry = observed.get(key);
        if (entry == null) {
            entry = new Observed(meters.observe(new GroupGaugeReading(key, gauges, read, diagnostics)));
            observed.put(key, entry);
        }
        entry.sessions++;
        AtomicBoolean closed = new AtomicBoolean();
        return () -> {
            if (closed.compareAndSet(false, true)) {
                release(key);
            }
        };
    }

    private synchronized void release(GroupKey key) {
        Observed entry = observed.get(key);
        if (--entry.sessions == 0) {
            observed.remove(key);
            entry.meters.close();
        }
    }

    private static final class Observed {
        private final GroupObservation meters;
        private int sessions;

        Observed(GroupObservation meters) {
            this.meters = meters;
        }
    }
}
