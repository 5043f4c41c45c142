package io.sqlstreams;

/**
 * What a message key means to one consumer group. Policies apply within a group, never across keys or
 * groups; {@link #EXCLUSIVE} and {@link #ORDERED} require the message to carry a message key.
 */
public enum Concurrency implements WireNamed {
    /** Messages of one key may run at the same time, in any order. The default. */
    PARALLEL("parallel"),
    /** At most one message of a key runs at a time within the group; order is not promised. */
    EXCLUSIVE("exclusive"),
    /** One at a time per key, and in id order: a later message waits for every earlier one. */
    ORDERED("ordered");

    private final String wireName;

    Concurrency(String wireName) {
        this.wireName = wireName;
    }

    /** The stored and configured spelling: {@code parallel}, {@code exclusive} or {@code ordered}. */
    @Override
    public String wireName() {
        return wireName;
    }

    /** True for the policies that take a key lease and so need a message key. */
    public boolean holdsKey() {
        return this != PARALLEL;
    }

    /**
     * Parses the stored spelling (case-insensitive, trimmed).
     *
     * @throws InvalidConfigurationException (SQL0108) for anything else
     */
    public static Concurrency fromWireName(String text) {
        return WireNamed.parse(Concurrency.class, "concurrency", text);
    }
}
