package io.sqlstreams.jakarta.config;

import io.sqlstreams.Code;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Every problem found so far, and which deployed groups they leave without trustworthy settings. */
final class ProblemLog {
    private final List<SettingsProblem> problems = new ArrayList<>();
    private final Set<GroupAddress> affected = new HashSet<>();

    void add(SettingsProblem problem, Collection<GroupAddress> affecting) {
        problems.add(problem);
        affected.addAll(affecting);
    }

    /** An SQL0108 problem: the value under {@code key}, or the key itself, is not acceptable. */
    void invalid(String key, String message, Collection<GroupAddress> affecting) {
        add(new SettingsProblem(Code.SQL0108, key, message), affecting);
    }

    boolean affects(GroupAddress address) {
        return affected.contains(address);
    }

    List<SettingsProblem> problems() {
        return List.copyOf(problems);
    }
}
