package io.sqlstreams;

import java.util.regex.Pattern;

/**
 * The form of an alert check's schedule until schedules take cron expressions: {@code @every <duration>}. The
 * duration itself is parsed where the check is declared.
 */
final class AlertSchedules {
    private static final Pattern EVERY = Pattern.compile("@every\\s+\\S+");

    private AlertSchedules() {
    }

    static void check(String property, String schedule, Violations violations) {
        violations.require(schedule == null || EVERY.matcher(schedule).matches(), property, schedule,
                "must be \"@every <duration>\", such as \"@every 1m\"");
    }
}
