package io.sqlstreams.engine.alert;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.sqlstreams.AlertState;
import io.sqlstreams.CollectorProgressAlertConfig;
import io.sqlstreams.engine.query.AlertQueries.Lease;

/**
 * Digest §7.6: {@code metrics_collector_progress} with maximum age 2 min and pending 2 min, evaluated at minute
 * 10. Leases are {@code from-until} in minutes, oldest first; {@code -} is none.
 */
class CollectorProgressTest {
    private static final Instant ZERO = Instant.parse("2026-12-03T10:00:00Z");

    @ParameterizedTest(name = "[{index}] completed at {0}, leases {1} → {2}")
    @CsvSource(delimiter = '|', nullValues = "none", textBlock = """
            # fresh enough
            9    | 0-11         | HEALTHY
            8    | 0-11         | HEALTHY
            # late by 1 min: pending; late by exactly the pending duration: active
            7    | 0-11         | PENDING
            6    | 0-11         | ACTIVE
            # no manager holds a lease now: no evidence
            1    | 0-9          | INSUFFICIENT
            none | -            | INSUFFICIENT
            # touching and overlapping leases are one unbroken stretch
            1    | 0-5 5-8 7-11 | ACTIVE
            # a gap in the leases starts the stretch again: late from minute 7 + 2, for 1 min
            1    | 0-5 7-11     | PENDING
            1    | 0-5 6-11     | ACTIVE
            # never completed: late counts from the start of the stretch
            none | 7-11         | PENDING
            none | 0-11         | ACTIVE
            """)
    void judgesLatenessWhileAManagerIsContinuouslyLive(Double completedMinute, String leases, AlertState expected) {
        CollectorProgress progress = new CollectorProgress(new CollectorProgressAlertConfig(null,
                Duration.ofMinutes(2), Duration.ofMinutes(2), false), Duration.ofSeconds(30));

        CollectorProgress.Verdict verdict = progress.evaluate(completedMinute == null ? null : at(completedMinute),
                leases(leases), at(10));

        assertThat(verdict.state()).isEqualTo(expected);
    }

    private static List<Lease> leases(String text) {
        List<Lease> leases = new ArrayList<>();
        if (text.trim().equals("-")) {
            return leases;
        }
        for (String lease : text.trim().split("\\s+")) {
            String[] bounds = lease.split("-");
            leases.add(new Lease(at(Double.parseDouble(bounds[0])), at(Double.parseDouble(bounds[1]))));
        }
        return leases;
    }

    private static Instant at(double minute) {
        return ZERO.plusMillis(Math.round(minute * 60_000));
    }
}
