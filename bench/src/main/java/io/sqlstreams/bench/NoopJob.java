package io.sqlstreams.bench;

/**
 * The no-op job JobRunr runs in the drain comparison: it records its id in the current measurement's
 * {@link HandledLog}. Public, with a boxed parameter, because JobRunr finds and calls it by reflection from the
 * job's stored description.
 */
public final class NoopJob {
    private static volatile HandledLog log;

    private NoopJob() {
    }

    static void recordInto(HandledLog target) {
        log = target;
    }

    public static void run(Long id) {
        HandledLog target = log;
        if (target != null) {
            target.record(id);
        }
    }
}
