package io.sqlstreams.jakarta.config;

import io.sqlstreams.InvalidConfigurationException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Binds one deployed group: each property from the group's own key (stream-qualified form first), else
 * from its {@code sqlstreams.defaults.} key, then runs the API's validation of the declaration and the
 * session options.
 */
final class GroupBinder {
    private final PropertyReader reader;
    private final ViolationProblems violations;
    private final DeployedGroups groups;
    private final Map<String, BoundValue<GroupDraft, ?>> defaults;

    GroupBinder(PropertyReader reader, ProblemLog problems, DeployedGroups groups,
                Map<String, BoundValue<GroupDraft, ?>> defaults) {
        this.reader = reader;
        this.violations = new ViolationProblems(problems);
        this.groups = groups;
        this.defaults = defaults;
    }

    /** The group's settings, valid or not: problems go to the log and mark the group as affected. */
    GroupSettings bind(GroupAddress address) {
        List<String> keyIds = groups.keyIds(address);
        String preferredKeyId = groups.preferredKeyId(address);
        return bind(address, (PropertyDeclaration<GroupDraft, ?> declaration) -> {
            Optional<String> ownKey = keyIds.stream()
                    .map(id -> PropertyKeys.groupKey(id, declaration.name()))
                    .filter(reader::isSet)
                    .findFirst();
            Optional<? extends BoundValue<GroupDraft, ?>> value = ownKey.isPresent()
                    ? reader.read(declaration, ownKey.get(), List.of(address))
                    : Optional.ofNullable(defaults.get(declaration.name()));
            return value;
        }, property -> PropertyKeys.groupKey(preferredKeyId, property), violations);
    }

    /**
     * A group's settings from {@code values} (each declared property's value, if it has one), validated as the
     * API validates them; a violation goes to {@code violations}, naming the key that supplied the value, else
     * {@code keyOfProperty}'s key.
     */
    static GroupSettings bind(GroupAddress address,
                              Function<PropertyDeclaration<GroupDraft, ?>, Optional<? extends BoundValue<GroupDraft, ?>>> values,
                              UnaryOperator<String> keyOfProperty, ViolationProblems violations) {
        GroupDraft draft = new GroupDraft();
        Map<String, String> suppliedBy = new HashMap<>();
        for (PropertyDeclaration<GroupDraft, ?> declaration : SettingsCatalogue.groupProperties()) {
            values.apply(declaration).ifPresent(bound -> {
                bound.bindTo(draft);
                suppliedBy.put(declaration.name(), bound.key());
            });
        }
        GroupSettings settings = draft.build(address);
        for (Runnable validation : List.<Runnable>of(settings.declaration()::validate, settings.options()::validate)) {
            try {
                validation.run();
            } catch (InvalidConfigurationException invalid) {
                violations.report(invalid, address, keyOfProperty, suppliedBy);
            }
        }
        return settings;
    }
}
