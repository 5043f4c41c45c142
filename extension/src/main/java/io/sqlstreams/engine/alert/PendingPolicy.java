package io.sqlstreams.engine.alert;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.sqlstreams.AlertState;
import io.sqlstreams.engine.codec.DurationText;

/**
 * The evidence-based pending policy of the stream alerts (digest §7.6). The newest sample decides whether there is
 * evidence at all and whether it is healthy; an unhealthy newest sample is active once the run of consecutive
 * unhealthy samples behind it, each no more than {@code maximumGap} before the next, spans {@code pendingDuration}.
 * The span is measured between samples, never up to now, so a single sample never becomes active by waiting.
 */
public record PendingPolicy(Duration pendingDuration, Duration maximumGap, boolean disablePending) {

    /** What an evaluation concluded; {@code unhealthySince} is null and the span zero unless pending or active. */
    public record Evaluation(AlertState state, Sample newest, Instant unhealthySince, Duration span,
                             String reason) {
    }

    /** The oldest sample time an evaluation at {@code evaluatedAt} may need. */
    public Instant windowStart(Instant evaluatedAt) {
        return disablePending ? evaluatedAt.minus(maximumGap)
                : evaluatedAt.minus(pendingDuration).minus(maximumGap.multipliedBy(2));
    }

    /** @param newestFirst the samples by recording time, newest first (ties: greater message id first) */
    public Evaluation evaluate(List<Sample> newestFirst, Instant evaluatedAt) {
        if (newestFirst.isEmpty()) {
            return insufficient(null, "no sample was recorded in the last " + DurationText.format(maximumGap));
        }
        Sample newest = newestFirst.get(0);
        if (newest.verdict() == Sample.Verdict.UNUSABLE) {
            return insufficient(newest, "the newest sample cannot be judged: " + newest.finding());
        }
        if (Duration.between(newest.recordedAt(), evaluatedAt).compareTo(maximumGap) > 0) {
            return insufficient(newest, "the newest sample is older than the maximum gap "
                    + DurationText.format(maximumGap));
        }
        if (newest.verdict() == Sample.Verdict.HEALTHY) {
            return new Evaluation(AlertState.HEALTHY, newest, null, Duration.ZERO, "the newest sample is healthy");
        }
        if (disablePending) {
            return new Evaluation(AlertState.ACTIVE, newest, newest.recordedAt(), Duration.ZERO,
                    "the newest sample is unhealthy and pending is disabled");
        }
        Sample earliest = earliestOfUnhealthyRun(newestFirst);
        Duration span = Duration.between(earliest.recordedAt(), newest.recordedAt());
        if (span.compareTo(pendingDuration) >= 0) {
            return new Evaluation(AlertState.ACTIVE, newest, earliest.recordedAt(), span,
                    "unhealthy samples span " + DurationText.format(span) + ", at least the pending duration "
                            + DurationText.format(pendingDuration));
        }
        return new Evaluation(AlertState.PENDING, newest, earliest.recordedAt(), span,
                "unhealthy samples span " + DurationText.format(span) + ", less than the pending duration "
                        + DurationText.format(pendingDuration));
    }

    private Sample earliestOfUnhealthyRun(List<Sample> newestFirst) {
        Sample earliest = newestFirst.get(0);
        for (Sample sample : newestFirst.subList(1, newestFirst.size())) {
            boolean continuous = Duration.between(sample.recordedAt(), earliest.recordedAt())
                    .compareTo(maximumGap) <= 0;
            if (sample.verdict() != Sample.Verdict.UNHEALTHY || !continuous) {
                break;
            }
            earliest = sample;
        }
        return earliest;
    }

    private static Evaluation insufficient(Sample newest, String reason) {
        return new Evaluation(AlertState.INSUFFICIENT, newest, null, Duration.ZERO, reason);
    }
}
