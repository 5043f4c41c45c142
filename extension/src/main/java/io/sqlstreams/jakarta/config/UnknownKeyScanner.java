package io.sqlstreams.jakarta.config;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Reports every listed key under {@code sqlstreams.} that no declaration reads: a mistyped property, a
 * group that is not deployed, a group segment without its quotes. A mistyped environment variable cannot be
 * told from one meant for something else, so it is not reported.
 */
final class UnknownKeyScanner {
    private static final String KEY_FORMS = "sqlstreams keys are " + String.join(", ",
            SettingsCatalogue.globalProperties().stream().map(PropertyDeclaration::name).toList())
            + ", " + PropertyKeys.defaultsKey("<property>") + ", " + PropertyKeys.groupKey("<group>", "<property>")
            + " and " + PropertyKeys.scheduleKey("<schedule>", "<property>");

    private final DeployedGroups groups;
    private final ProblemLog problems;
    private final Set<String> groupPropertyNames = SettingsCatalogue.groupProperties().stream()
            .map(PropertyDeclaration::name).collect(Collectors.toUnmodifiableSet());
    private final Set<String> globalKeys = SettingsCatalogue.globalProperties().stream()
            .map(PropertyDeclaration::name).collect(Collectors.toUnmodifiableSet());
    private final Set<String> schedulePropertyNames = SettingsCatalogue.scheduleProperties().stream()
            .map(PropertyDeclaration::name).collect(Collectors.toUnmodifiableSet());

    UnknownKeyScanner(DeployedGroups groups, ProblemLog problems) {
        this.groups = groups;
        this.problems = problems;
    }

    void scan(Iterable<ConfigSource> sources) {
        Set<String> ours = new TreeSet<>();
        for (ConfigSource source : sources) {
            Set<String> names = source.getPropertyNames();
            names.stream()
                    .filter(name -> name.startsWith(PropertyKeys.ROOT))
                    .filter(name -> !isGuessedFromEnvironmentVariable(name, names))
                    .forEach(ours::add);
        }
        ours.forEach(this::check);
    }

    /**
     * SmallRye Config, which Liberty's mpConfig is built on, lists {@code SQLSTREAMS_DEFAULTS_BATCH_LIMIT} a
     * second time as {@code sqlstreams.defaults.batch.limit}: a guess, not a key anyone wrote.
     */
    private static boolean isGuessedFromEnvironmentVariable(String name, Set<String> namesOfItsSource) {
        String variable = PropertyKeys.environmentVariable(name);
        return !variable.equals(name) && namesOfItsSource.contains(variable);
    }

    private void check(String key) {
        if (globalKeys.contains(key)) {
            return;
        }
        if (key.startsWith(PropertyKeys.DEFAULTS)) {
            checkProperty(key, key.substring(PropertyKeys.DEFAULTS.length()), "", groups.addresses());
            return;
        }
        Optional<PropertyKeys.GroupKey> groupKey = PropertyKeys.parseGroupKey(key);
        Optional<PropertyKeys.GroupKey> scheduleKey = PropertyKeys.parseScheduleKey(key);
        if (groupKey.isPresent()) {
            checkGroupKey(key, groupKey.get());
        } else if (scheduleKey.isPresent()) {
            checkScheduleKey(key, scheduleKey.get());
        } else if (key.startsWith(PropertyKeys.GROUPS)) {
            reportUnquoted(key, key.substring(PropertyKeys.GROUPS.length()));
        } else {
            problems.invalid(key, "unknown property; " + KEY_FORMS, List.of());
        }
    }

    private void checkScheduleKey(String key, PropertyKeys.GroupKey scheduleKey) {
        if (!schedulePropertyNames.contains(scheduleKey.property())) {
            problems.invalid(key, "unknown schedule property" + suggestion(scheduleKey.property(),
                    schedulePropertyNames, "") + "; a schedule's properties are "
                    + new TreeSet<>(schedulePropertyNames), List.of());
        }
    }

    private void checkGroupKey(String key, PropertyKeys.GroupKey groupKey) {
        List<GroupAddress> addressed = groups.addressedBy(groupKey.groupId());
        if (addressed.isEmpty()) {
            problems.invalid(key, "no consumer group \"" + groupKey.groupId() + "\" is deployed"
                    + suggestion(groupKey.groupId(), groups.keyIdsInUse(), "; deployed: " + groups.addresses()),
                    List.of());
            return;
        }
        checkProperty(key, groupKey.property(), " for group \"" + groupKey.groupId() + "\"", addressed);
    }

    private void checkProperty(String key, String property, String where, Collection<GroupAddress> affected) {
        if (!groupPropertyNames.contains(property)) {
            problems.invalid(key, "unknown property " + property + where
                    + suggestion(property, groupPropertyNames, ""), affected);
        }
    }

    private void reportUnquoted(String key, String afterGroups) {
        Optional<String> meant = groups.keyIdsInUse().stream()
                .filter(id -> afterGroups.startsWith(id + "."))
                .findFirst();
        String correction = meant
                .map(id -> "; write " + PropertyKeys.groupKey(id, afterGroups.substring(id.length() + 1)))
                .orElse("");
        problems.invalid(key, "the group segment must be in double quotes, as in "
                        + PropertyKeys.groupKey("<group>", "<property>") + correction,
                meant.map(groups::addressedBy).orElse(List.of()));
    }

    private static String suggestion(String typed, Collection<String> known, String otherwise) {
        return SpellingSuggestion.closest(typed, known).map(name -> " (did you mean " + name + "?)").orElse(otherwise);
    }
}
