package io.sqlstreams.engine.alert;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.sqlstreams.AlertState;

/**
 * Digest §7.6: the evidence-based pending policy, threshold 100, pending duration and maximum gap 2 min unless a
 * row says otherwise. Samples are written {@code value@minute} oldest first; {@code x} is an unusable sample.
 */
class PendingPolicyTest {
    private static final Instant TEN = Instant.parse("2026-12-03T10:00:00Z");
    private static final long THRESHOLD = 100;

    @ParameterizedTest(name = "[{index}] {0} evaluated at {1} min → {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # the worked example of the digest
            105@0                      | 0   | PENDING      | 0
            105@0 108@1                | 1   | PENDING      | 0
            105@0 108@1 110@2          | 2   | ACTIVE       | 0
            105@0 108@1 110@2 95@3     | 3   | HEALTHY      |
            # exactly the threshold counts as unhealthy; one below does not
            100@0 100@1 100@2          | 2   | ACTIVE       | 0
            99@0 99@1 99@2             | 2   | HEALTHY      |
            # one sample never becomes active by waiting
            105@0                      | 1.5 | PENDING      | 0
            105@0                      | 2   | PENDING      | 0
            # the newest sample older than the maximum gap is no evidence; exactly the gap still is
            105@0                      | 2.1 | INSUFFICIENT |
            105@0 105@2                | 4   | ACTIVE       | 0
            # a gap of exactly the maximum gap is continuous; a longer one breaks the run
            105@0 105@2                | 2   | ACTIVE       | 0
            105@0 105@2.5              | 2.5 | PENDING      | 2.5
            # a healthy or unusable sample breaks the run
            105@0 95@1 105@2 105@3     | 3   | PENDING      | 2
            105@0 x@1 105@2 105@3      | 3   | PENDING      | 2
            105@0 105@1 105@2 105@3    | 3   | ACTIVE       | 0
            # an unusable newest sample is no evidence
            105@0 105@1 x@2            | 2   | INSUFFICIENT |
            # no sample at all
            -                          | 0   | INSUFFICIENT |
            """)
    void evaluates(String samples, double evaluatedAtMinute, AlertState expected, Double unhealthySinceMinute) {
        PendingPolicy policy = new PendingPolicy(Duration.ofMinutes(2), Duration.ofMinutes(2), false);

        PendingPolicy.Evaluation evaluation = policy.evaluate(newestFirst(samples), at(evaluatedAtMinute));

        assertThat(evaluation.state()).isEqualTo(expected);
        assertThat(evaluation.unhealthySince()).isEqualTo(unhealthySinceMinute == null ? null
                : at(unhealthySinceMinute));
    }

    @ParameterizedTest(name = "[{index}] pending disabled: {0} at {1} min → {2}")
    @CsvSource(delimiter = '|', textBlock = """
            105@0        | 0   | ACTIVE
            95@0 105@1   | 1   | ACTIVE
            105@0 95@1   | 1   | HEALTHY
            105@0        | 2.5 | INSUFFICIENT
            """)
    void activatesAtOnceWhenPendingIsDisabled(String samples, double evaluatedAtMinute, AlertState expected) {
        PendingPolicy policy = new PendingPolicy(Duration.ofMinutes(2), Duration.ofMinutes(2), true);

        assertThat(policy.evaluate(newestFirst(samples), at(evaluatedAtMinute)).state()).isEqualTo(expected);
    }

    @ParameterizedTest(name = "[{index}] window at 10 min, pending disabled {0} → from minute {1}")
    @CsvSource({"false, 4", "true, 8"})
    void readsEnoughEvidenceForTheLongestRunItCouldNeed(boolean disablePending, double fromMinute) {
        PendingPolicy policy = new PendingPolicy(Duration.ofMinutes(2), Duration.ofMinutes(2), disablePending);

        assertThat(policy.windowStart(at(10))).isEqualTo(at(fromMinute));
    }

    private static List<Sample> newestFirst(String samples) {
        List<Sample> parsed = new ArrayList<>();
        if (samples.equals("-")) {
            return parsed;
        }
        long id = 0;
        for (String sample : samples.trim().split("\\s+")) {
            String[] valueAndMinute = sample.split("@");
            Instant recordedAt = at(Double.parseDouble(valueAndMinute[1]));
            Sample.Verdict verdict = valueAndMinute[0].equals("x") ? Sample.Verdict.UNUSABLE
                    : Long.parseLong(valueAndMinute[0]) >= THRESHOLD ? Sample.Verdict.UNHEALTHY
                    : Sample.Verdict.HEALTHY;
            parsed.add(0, new Sample(recordedAt, ++id, verdict, sample));
        }
        return parsed;
    }

    private static Instant at(double minute) {
        return TEN.plusMillis(Math.round(minute * 60_000));
    }
}
