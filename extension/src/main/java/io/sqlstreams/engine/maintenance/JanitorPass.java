package io.sqlstreams.engine.maintenance;

import java.time.Duration;
import java.util.List;

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
}
