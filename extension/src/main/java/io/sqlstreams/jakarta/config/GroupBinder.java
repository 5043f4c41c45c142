package io.sqlstreams.jakarta.config;

import io.sqlstreams.InvalidConfigurationException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
        GroupDraft draft = new GroupDraft();
        Map<String, String> suppliedBy = new HashMap<>();
        List<String> keyIds = groups.keyIds(address);
        for (PropertyDeclaration<GroupDraft, ?> declaration : SettingsCatalogue.groupProperties()) {
            Optional<String> ownKey = keyIds.stream()
                    .map(id -> PropertyKeys.groupKey(id, declaration.name()))
                    .filter(reader::isSet)
                    .findFirst();
            Optional<? extends BoundValue<GroupDraft, ?>> value = ownKey.isPresent()
                    ? reader.read(declaration, ownKey.get(), List.of(address))
                    : Optional.ofNullable(defaults.get(declaration.name()));
            value.ifPresent(bound -> {
                bound.bindTo(draft);
                suppliedBy.put(declaration.name(), bound.key());
            });
        }
        GroupSettings settings = draft.build(address);
        validate(settings.declaration()::validate, address, suppliedBy);
        validate(settings.options()::validate, address, suppliedBy);
        return settings;
    }

    private void validate(Runnable validation, GroupAddress address, Map<String, String> suppliedBy) {
        try {
            validation.run();
        } catch (InvalidConfigurationException invalid) {
            violations.report(invalid, address, groups.preferredKeyId(address), suppliedBy);
        }
    }
}
