package io.sqlstreams.jakarta.config;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The spelling of configuration keys. A group segment is quoted because group and stream names contain
 * dots; MicroProfile Config keeps the quotes as part of the name, so {@code sqlstreams.groups."charge-cards".batch-limit}
 * is looked up literally, and its environment-variable form is {@code SQLSTREAMS_GROUPS__CHARGE_CARDS__BATCH_LIMIT}.
 */
final class PropertyKeys {
    static final String ROOT = "sqlstreams.";
    static final String DEFAULTS = ROOT + "defaults.";
    static final String GROUPS = ROOT + "groups.";
    static final String SCHEDULES = ROOT + "schedules.";
    private static final Pattern NOT_LETTER_OR_DIGIT = Pattern.compile("[^A-Za-z0-9]");

    private PropertyKeys() {
    }

    static String globalKey(String name) {
        return ROOT + name;
    }

    static String defaultsKey(String property) {
        return DEFAULTS + property;
    }

    /** {@code sqlstreams.groups."<groupId>".<property>}, where groupId is a group name or {@code <stream>/<group>}. */
    static String groupKey(String groupId, String property) {
        return GROUPS + '"' + groupId + "\"." + property;
    }

    /** {@code sqlstreams.schedules."<name>".<property>}. */
    static String scheduleKey(String name, String property) {
        return SCHEDULES + '"' + name + "\"." + property;
    }

    /**
     * The environment variable MicroProfile Config also looks {@code key} up as: every character other than
     * a letter or digit becomes {@code _}, and the result is upper-cased.
     */
    static String environmentVariable(String key) {
        return NOT_LETTER_OR_DIGIT.matcher(key).replaceAll("_").toUpperCase(Locale.ROOT);
    }

    /** The quoted group segment and the property after it, when {@code key} has that shape. */
    static Optional<GroupKey> parseGroupKey(String key) {
        return parseQuoted(GROUPS, key);
    }

    /** The quoted schedule name and the property after it, when {@code key} has that shape. */
    static Optional<GroupKey> parseScheduleKey(String key) {
        return parseQuoted(SCHEDULES, key);
    }

    private static Optional<GroupKey> parseQuoted(String prefix, String key) {
        if (!key.startsWith(prefix + '"')) {
            return Optional.empty();
        }
        int idStart = prefix.length() + 1;
        int idEnd = key.indexOf("\".", idStart);
        if (idEnd < 0 || idEnd + 2 == key.length()) {
            return Optional.empty();
        }
        return Optional.of(new GroupKey(key.substring(idStart, idEnd), key.substring(idEnd + 2)));
    }

    /** A parsed group or schedule key: the text between the quotes, and the property name after them. */
    record GroupKey(String groupId, String property) {
    }
}
