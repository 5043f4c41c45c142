package io.sqlstreams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A worker's status from its counts (digest §7.3), and the snapshot's rules. */
class WorkerSnapshotTest {

    @ParameterizedTest(name = "target {0}, live {1}, attempts {2} -> {3}")
    @CsvSource({
            "0, 0, 0, SUSPENDED",
            "0, 1, 4, SUSPENDED",
            "1, 0, 0, UNCLAIMED",
            "-1, 0, 0, UNCLAIMED",
            "1, 1, 0, CLAIMED",
            "-1, 3, 0, CLAIMED",
            "1, 1, 2, FAILING"})
    void theStatusFollowsFromTheCounts(int target, int live, int attempts, WorkerStatus expected) {
        assertThat(WorkerStatus.of(target, live, attempts)).isEqualTo(expected);
        Optional<Duration> unclaimedFor = live == 0 ? Optional.of(Duration.ofSeconds(5)) : Optional.empty();
        assertThat(WorkerSnapshot.of("stream_janitor", target, live, attempts, unclaimedFor).status())
                .isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"suspended, SUSPENDED", "unclaimed, UNCLAIMED", "claimed, CLAIMED", "failing, FAILING"})
    void statusesAreSpelledInLowerCase(String wireName, WorkerStatus status) {
        assertThat(status.wireName()).isEqualTo(wireName);
    }

    @ParameterizedTest(name = "target {0}, live {1}, attempts {2}, unclaimed {3}s")
    @CsvSource({"-2, 0, 0, 1", "1, -1, 0, 1", "1, 0, -1, 1", "1, 1, 0, 1", "1, 0, 0, ", "1, 0, 0, -1"})
    void inconsistentCountsAreRefused(int target, int live, int attempts, Long unclaimedSeconds) {
        Optional<Duration> unclaimedFor = Optional.ofNullable(unclaimedSeconds).map(Duration::ofSeconds);

        assertThatThrownBy(() -> WorkerSnapshot.of("stream_janitor", target, live, attempts, unclaimedFor))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("worker stream_janitor: ");
    }
}
