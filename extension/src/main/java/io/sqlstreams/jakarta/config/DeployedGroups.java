package io.sqlstreams.jakarta.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The groups the application deploys, and the group segments ({@code "<group>"} or {@code "<stream>/<group>"})
 * their keys may use. A group name deployed on two streams is ambiguous: only its stream-qualified form
 * names one group.
 */
final class DeployedGroups {
    private final List<GroupAddress> addresses;
    private final Map<String, List<GroupAddress>> byName = new LinkedHashMap<>();

    DeployedGroups(Collection<GroupAddress> deployed) {
        this.addresses = List.copyOf(new LinkedHashSet<>(deployed));
        for (GroupAddress address : addresses) {
            byName.computeIfAbsent(address.group(), name -> new ArrayList<>()).add(address);
        }
    }

    List<GroupAddress> addresses() {
        return addresses;
    }

    boolean isAmbiguous(String groupName) {
        return byName.getOrDefault(groupName, List.of()).size() > 1;
    }

    /** The group names deployed on more than one stream, each with its groups. */
    Map<String, List<GroupAddress>> ambiguousNames() {
        Map<String, List<GroupAddress>> ambiguous = new LinkedHashMap<>();
        byName.forEach((name, groups) -> {
            if (groups.size() > 1) {
                ambiguous.put(name, List.copyOf(groups));
            }
        });
        return ambiguous;
    }

    /** The segments that address {@code address}, the one that wins first: qualified, then short unless ambiguous. */
    List<String> keyIds(GroupAddress address) {
        return isAmbiguous(address.group()) ? List.of(address.qualifiedName())
                : List.of(address.qualifiedName(), address.group());
    }

    /** The segment problems name for {@code address}: the short form unless it is ambiguous. */
    String preferredKeyId(GroupAddress address) {
        return isAmbiguous(address.group()) ? address.qualifiedName() : address.group();
    }

    /** The groups a key segment addresses: none for an unknown one, several for an ambiguous short name. */
    List<GroupAddress> addressedBy(String keyId) {
        List<GroupAddress> named = byName.get(keyId);
        if (named != null) {
            return named;
        }
        return addresses.stream().filter(address -> address.qualifiedName().equals(keyId)).toList();
    }

    Set<String> keyIdsInUse() {
        Set<String> ids = new LinkedHashSet<>(byName.keySet());
        addresses.forEach(address -> ids.add(address.qualifiedName()));
        return ids;
    }
}
