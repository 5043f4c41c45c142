package io.sqlstreams.engine.janitor;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;

/**
 * What one janitor's pass over a stream did: a report for every step, in the order they ran.
 *
 * @param streamId the stream's id
 * @param steps    one report per {@link JanitorStep}, in order
 * @param took     how long the whole pass ran
 */
public record JanitorPass(long streamId, List<StepReport> steps, Duration took) {

    public JanitorPass {
        steps = List.copyOf(steps);
    }

    /** The report of {@code step}. */
    public StepReport step(JanitorStep step) {
        return steps.stream().filter(report -> report.step() == step).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("the pass has no step " + step));
    }

    /** True when some step failed: for a worker, a failed tick. */
    public boolean failed() {
        return steps.stream().anyMatch(report -> !report.done());
    }

    /**
     * The pass's failure as one coded exception (SQL0139) naming every failed step with its cause, the first
     * step's failure as its cause; empty when every step finished.
     */
    public Optional<SqlStreamsException> failure() {
        List<StepReport> failed = steps.stream().filter(report -> !report.done()).toList();
        if (failed.isEmpty()) {
            return Optional.empty();
        }
        String summary = failed.stream().map(report -> report.step().wireName() + " (" + report.failure().getMessage()
                + ")").collect(Collectors.joining("; "));
        return Optional.of(new SqlStreamsException(Code.SQL0139, "the janitor's pass over stream id " + streamId
                + " failed " + failed.size() + " of " + steps.size() + " steps: " + summary,
                failed.get(0).failure()));
    }
}
