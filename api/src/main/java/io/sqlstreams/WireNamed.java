package io.sqlstreams;

import java.util.Arrays;

/** An enum whose constants have one stored and configured spelling each. */
public interface WireNamed {
    /** The spelling used in PostgreSQL rows, JSON documents and configuration. */
    String wireName();

    /**
     * The constant of {@code type} spelled {@code text} (case-insensitive, trimmed).
     *
     * @throws InvalidConfigurationException (SQL0108) naming {@code property} and the allowed spellings
     */
    static <E extends Enum<E> & WireNamed> E parse(Class<E> type, String property, String text) {
        String wanted = text == null ? "" : text.trim();
        E[] constants = type.getEnumConstants();
        for (E constant : constants) {
            if (constant.wireName().equalsIgnoreCase(wanted)) {
                return constant;
            }
        }
        throw Violations.single(property, text,
                "must be one of " + Arrays.stream(constants).map(WireNamed::wireName).toList());
    }
}
