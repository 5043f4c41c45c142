package io.sqlstreams;

/**
 * Where a brand-new consumer group's cursor is placed. Read once, when the group's cursor row is
 * created; a later declaration's start changes nothing.
 */
public enum Start implements WireNamed {
    /** The retained history: the group reads every message still in the stream. The default. */
    BEGINNING("beginning"),
    /** Only messages above the visible head at registration. */
    HEAD("head");

    private final String wireName;

    Start(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }

    /** @throws InvalidConfigurationException (SQL0108) for an unknown spelling */
    public static Start fromWireName(String text) {
        return WireNamed.parse(Start.class, "start", text);
    }
}
