package io.sqlstreams.jakarta;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sqlstreams.Code;
import io.sqlstreams.jakarta.config.GroupAddress;
import io.sqlstreams.jakarta.config.ResolvedSettings;
import io.sqlstreams.jakarta.config.SettingsProblem;
import io.sqlstreams.jakarta.config.SettingsResolver;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * What the extension found in the deployment: the consumer groups' observers, the problems that fail it, and the
 * settings resolved for those groups. The extension fills it while the container scans and deploys; the runtime
 * injects it (the extension adds it as a bean) to start the groups' sessions.
 */
final class Discovery {
    private final List<ObservedGroup> observed = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private ResolvedSettings settings;

    void found(ObservedGroup group) {
        observed.add(group);
    }

    void problem(String problem) {
        problems.add(problem);
    }

    /** Every group found, in discovery order. */
    List<ObservedGroup> groups() {
        return List.copyOf(observed);
    }

    /** Every problem so far, in the order found. */
    List<String> problems() {
        return List.copyOf(problems);
    }

    /**
     * The settings, resolved at deployment validation, or earlier when something asks for them first (a Reactive
     * Messaging implementation opens the connector's channels in its own validation observer).
     */
    synchronized ResolvedSettings settings() {
        if (settings == null) {
            Map<GroupAddress, ObservedGroup> byAddress = new LinkedHashMap<>();
            for (ObservedGroup group : observed) {
                ObservedGroup earlier = byAddress.putIfAbsent(group.address(), group);
                if (earlier != null) {
                    problems.add(Code.SQL0136.id() + " " + group.describe() + " is observed twice: also by "
                            + earlier.observer().getBeanClass().getName() + "; one observer per stream and group");
                }
            }
            settings = SettingsResolver.resolve(ConfigProvider.getConfig(), byAddress.keySet());
            settings.problems().stream().map(SettingsProblem::describe).forEach(problems::add);
        }
        return settings;
    }
}
