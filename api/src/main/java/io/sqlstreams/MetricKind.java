package io.sqlstreams;

/** Whether a measurement is a point-in-time value or a cumulative total. */
public enum MetricKind implements WireNamed {
    /** A value observed now (a backlog, an age); it may go up and down. */
    GAUGE("gauge"),
    /** A cumulative total since its source started; it never goes down while that source lives. */
    COUNTER("counter");

    private final String wireName;

    MetricKind(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }

    /** @throws InvalidConfigurationException (SQL0108) for an unknown spelling */
    public static MetricKind fromWireName(String text) {
        return WireNamed.parse(MetricKind.class, "kind", text);
    }
}
