package io.sqlstreams.engine.schema;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.sqlstreams.engine.schema.DirectedMigration.Direction;

/** The steps this build knows: system scope at version 2 (the fence warning), stream scope at version 2. */
class DdlScopeTest {
    @Test
    void eachScopesBuildVersionIsItsLastStepsOrTheBaseline() {
        assertThat(DdlScope.SYSTEM.buildVersion()).isEqualTo(2);
        assertThat(DdlScope.STREAM.buildVersion()).isEqualTo(2);
    }

    @Test
    void stepsFollowEachOtherFromTheBaselineUp() {
        for (DdlScope scope : DdlScope.values()) {
            for (int version = 1; version < scope.buildVersion(); version++) {
                MigrationStep up = scope.stepFrom(version, Direction.UP).orElseThrow();
                assertThat(up.version()).as("%s up from %d", scope, version).isEqualTo(version + 1);
                assertThat(scope.stepFrom(version + 1, Direction.DOWN)).contains(up);
            }
            assertThat(scope.stepFrom(scope.buildVersion(), Direction.UP)).as("%s beyond the build", scope).isEmpty();
            assertThat(scope.stepFrom(1, Direction.DOWN)).as("%s below the baseline", scope).isEmpty();
        }
    }

    @Test
    void theMessageHeadersStepIsAdditive() {
        MigrationStep headers = DdlScope.STREAM.stepFrom(1, Direction.UP).orElseThrow();

        assertThat(headers).isEqualTo(new MigrationStep(2, 0, "add_message_headers", "drop_message_headers",
                "message_log_{id}"));
        assertThat(DdlScope.STREAM.minCompatibleVersionAt(2)).isZero();
    }

    @Test
    void theFenceWarningStepIsAdditive() {
        MigrationStep fenceWarning = DdlScope.SYSTEM.stepFrom(1, Direction.UP).orElseThrow();

        assertThat(fenceWarning).isEqualTo(new MigrationStep(2, 0, "add_stream_fence_warn_after",
                "drop_stream_fence_warn_after", "stream_config"));
        assertThat(DdlScope.SYSTEM.minCompatibleVersionAt(1)).isZero();
        assertThat(DdlScope.SYSTEM.minCompatibleVersionAt(2)).isZero();
    }
}
