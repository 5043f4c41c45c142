package io.sqlstreams.engine.schema;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

import io.sqlstreams.engine.schema.DirectedMigration.Direction;

/**
 * The two DDL counters (digest §8.3), each with the steps this build knows. Version 1 is a scope's baseline, which
 * creation writes directly; each step raises it by one, so a scope's build version is its last step's.
 */
public enum DdlScope {
    /** The shared tables. */
    SYSTEM(List.of(
            new MigrationStep(2, 0, "add_stream_fence_warn_after", "drop_stream_fence_warn_after", "stream_config"))),
    /** Each stream's table family. */
    STREAM(List.of(
            new MigrationStep(2, 0, "add_message_headers", "drop_message_headers", "message_log_{id}")));

    private static final int BASELINE = 1;

    private final List<MigrationStep> steps;

    DdlScope(List<MigrationStep> steps) {
        this.steps = steps;
    }

    /** The DDL version of this scope that this build creates and reads. */
    public int buildVersion() {
        return steps.isEmpty() ? BASELINE : steps.get(steps.size() - 1).version();
    }

    /** The oldest library DDL version that reads this scope at {@code version}: the strictest applied step's. */
    public int minCompatibleVersionAt(int version) {
        return steps.stream().filter(step -> step.version() <= version)
                .mapToInt(MigrationStep::minCompatibleVersion).max().orElse(0);
    }

    /** The name in messages, the CLI and JSON: {@code system} or {@code stream}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The step that moves a scope at {@code version} one version {@code direction}; empty when this build has none. */
    Optional<MigrationStep> stepFrom(int version, Direction direction) {
        int stepVersion = direction == Direction.UP ? version + 1 : version;
        return steps.stream().filter(step -> step.version() == stepVersion).findFirst();
    }
}
