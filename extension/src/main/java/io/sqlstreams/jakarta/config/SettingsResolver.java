package io.sqlstreams.jakarta.config;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.SqlStreamsException;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.Config;

/**
 * Reads the sqlstreams settings of a deployment from MicroProfile Config: the global settings, and each
 * deployed group's declaration, session options and runtime settings, and the schedules it declares. Every problem is collected, none
 * stops the reading; a group with any problem is left out of the result's groups.
 *
 * <p>For a group property the most specific key wins whatever the ordinals of the sources holding the
 * keys: {@code sqlstreams.groups."<stream>/<group>".p}, then {@code sqlstreams.groups."<group>".p}, then
 * {@code sqlstreams.defaults.p}. Between sources holding the same key, MicroProfile Config's ordinals
 * decide as usual.
 */
public final class SettingsResolver {

    private SettingsResolver() {
    }

    public static ResolvedSettings resolve(Config config, Collection<GroupAddress> deployedGroups) {
        DeployedGroups groups = new DeployedGroups(deployedGroups);
        ProblemLog problems = new ProblemLog();
        PropertyReader reader = new PropertyReader(config, problems);

        GlobalSettings global = bindGlobal(reader, problems);
        GroupBinder binder = new GroupBinder(reader, problems, groups, readDefaults(reader, groups));
        List<GroupSettings> bound = groups.addresses().stream().map(binder::bind).toList();
        reportAmbiguousShortKeys(reader, problems, groups);
        List<ScheduleSettings> schedules = new ScheduleBinder(reader, problems)
                .bind(ScheduleBinder.declaredNames(config.getPropertyNames()));
        new UnknownKeyScanner(groups, problems).scan(config.getConfigSources());

        Map<GroupAddress, GroupSettings> valid = new LinkedHashMap<>();
        bound.stream().filter(settings -> !problems.affects(settings.address()))
                .forEach(settings -> valid.put(settings.address(), settings));
        return new ResolvedSettings(global, valid, schedules, problems.problems());
    }

    /** The application-wide settings alone, for what runs before deployment validation; the first problem is thrown. */
    public static GlobalSettings global(Config config) {
        ProblemLog problems = new ProblemLog();
        GlobalSettings global = bindGlobal(new PropertyReader(config, problems), problems);
        problems.problems().stream().findFirst().ifPresent(problem -> {
            throw new SqlStreamsException(problem.code(), problem.property() + ": " + problem.message());
        });
        return global;
    }

    private static GlobalSettings bindGlobal(PropertyReader reader, ProblemLog problems) {
        GlobalDraft draft = new GlobalDraft();
        for (PropertyDeclaration<GlobalDraft, ?> declaration : SettingsCatalogue.globalProperties()) {
            reader.read(declaration, declaration.name(), List.of()).ifPresent(value -> value.bindTo(draft));
        }
        GlobalSettings global = draft.build();
        try {
            ClientConfig.builder().schema(global.schema()).build().validate();
        } catch (SqlStreamsException invalid) {
            String prefix = invalid.code().id() + " ";
            String message = invalid.getMessage();
            problems.add(new SettingsProblem(invalid.code(), PropertyKeys.globalKey("schema"),
                    message.startsWith(prefix) ? message.substring(prefix.length()) : message), List.of());
        }
        return global;
    }

    /** The {@code sqlstreams.defaults.} values, read once: a bad one is one problem, affecting every group. */
    private static Map<String, BoundValue<GroupDraft, ?>> readDefaults(PropertyReader reader, DeployedGroups groups) {
        Map<String, BoundValue<GroupDraft, ?>> defaults = new HashMap<>();
        for (PropertyDeclaration<GroupDraft, ?> declaration : SettingsCatalogue.groupProperties()) {
            reader.read(declaration, PropertyKeys.defaultsKey(declaration.name()), groups.addresses())
                    .ifPresent(value -> defaults.put(declaration.name(), value));
        }
        return defaults;
    }

    /** Probed key by key rather than listed, so that an ambiguous key set as an environment variable is found. */
    private static void reportAmbiguousShortKeys(PropertyReader reader, ProblemLog problems, DeployedGroups groups) {
        groups.ambiguousNames().forEach((name, addresses) -> {
            for (PropertyDeclaration<GroupDraft, ?> declaration : SettingsCatalogue.groupProperties()) {
                String key = PropertyKeys.groupKey(name, declaration.name());
                if (reader.isSet(key)) {
                    problems.invalid(key, "ambiguous: group \"" + name + "\" is deployed on several streams; use "
                            + addresses.stream().map(a -> PropertyKeys.groupKey(a.qualifiedName(), declaration.name()))
                            .collect(Collectors.joining(" or ")), addresses);
                }
            }
        });
    }
}
