package io.sqlstreams.bench;

import java.util.List;
import java.util.Optional;

/** Every scenario the harness can run, by name. */
final class Scenarios {
    private static final List<Scenario> ALL = List.of(new BaselineScenario(), new ProduceScenario(),
            new DrainScenario(), new SustainedScenario(), new LatencyScenario(), new HandlerScenario(),
            new FailureScenario(), new KeysScenario(), new ChaosScenario(), new RetentionScenario(),
            new MvccScenario(), new FenceScenario(), new WakeupScenario(), new ScaleScenario(), new CollectorScenario(),
            new TelemetryScenario(), new HandlerFormsScenario());

    private Scenarios() {
    }

    static Optional<Scenario> named(String name) {
        return ALL.stream().filter(scenario -> scenario.name().equals(name)).findFirst();
    }

    static List<String> names() {
        return ALL.stream().map(Scenario::name).toList();
    }
}
