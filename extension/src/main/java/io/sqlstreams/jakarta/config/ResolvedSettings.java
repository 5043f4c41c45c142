package io.sqlstreams.jakarta.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of reading the configuration: every problem found, and the settings of each deployed group
 * that has none. Nothing should start while {@link #problems()} is not empty; {@link #global()} then holds
 * the values as configured, valid or not.
 *
 * @param global   the application-wide settings
 * @param groups    the settings of every deployed group without problems, in deployment order
 * @param schedules the schedules the configuration declares, those without problems, by name
 * @param problems  every problem found, in the order found
 */
public record ResolvedSettings(GlobalSettings global, Map<GroupAddress, GroupSettings> groups,
                               List<ScheduleSettings> schedules, List<SettingsProblem> problems) {

    public ResolvedSettings {
        groups = Collections.unmodifiableMap(new LinkedHashMap<>(groups));
        schedules = List.copyOf(schedules);
        problems = List.copyOf(problems);
    }
}
