package io.sqlstreams;

import java.time.Duration;
import java.time.Instant;

/**
 * One evaluation of an alert's current evidence under the current declared policy, recorded nowhere.
 *
 * @param state            healthy, pending, active, or insufficient evidence
 * @param finding          what the newest evidence shows, in one line
 * @param evaluatedAt      the database's time of the evaluation
 * @param observedAt       when the newest evidence was recorded; null when there is none
 * @param unhealthySince   when the run of unhealthy evidence began; null unless pending or active
 * @param observedDuration how long the run of unhealthy evidence spans; zero unless pending or active
 * @param pendingDuration  how long the condition must hold before the alert is active
 * @param disablePending   whether the first unhealthy evidence makes it active at once
 * @param maximumGap       the widest gap between two pieces of evidence that still counts as continuous; null for
 *                         {@code metrics_collector_progress}
 * @param maximumAge       how old the collector's last completed pass may be; null except for
 *                         {@code metrics_collector_progress}
 * @param reason           why the state is what it is, in one line
 */
public record AlertEvaluationSnapshot(AlertState state, String finding, Instant evaluatedAt, Instant observedAt,
                                      Instant unhealthySince, Duration observedDuration, Duration pendingDuration,
                                      boolean disablePending, Duration maximumGap, Duration maximumAge,
                                      String reason) {
}
