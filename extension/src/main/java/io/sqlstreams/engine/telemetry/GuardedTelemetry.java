package io.sqlstreams.engine.telemetry;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.sqlstreams.Code;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricDefinition;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.engine.Diagnostics;

/**
 * Keeps telemetry from ever changing a delivery or a produce: whatever a tracer or a metrics registry throws is
 * logged as SQL0154 and the work goes on untraced. (A metric that threw at the end of a handler run would otherwise
 * leave the run without an outcome, and one that threw after a produce would report a written message as failed.)
 */
final class GuardedTelemetry implements Telemetry {
    private final Telemetry inner;
    private final Diagnostics diagnostics;

    GuardedTelemetry(Telemetry inner, Diagnostics diagnostics) {
        this.inner = inner;
        this.diagnostics = diagnostics;
    }

    @Override
    public SendTrace send(String stream, int messages) {
        SendTrace trace = guarded("starting the send to " + stream, () -> inner.send(stream, messages),
                SendTrace.NONE);
        return trace == SendTrace.NONE ? trace : new GuardedSend(trace, stream);
    }

    @Override
    public ProcessTrace process(String stream, String group, long messageId, int attempt,
                                Map<String, String> headers) {
        ProcessTrace trace = guarded("starting the run of message " + messageId + " of " + stream + "/" + group,
                () -> inner.process(stream, group, messageId, attempt, headers), ProcessTrace.NONE);
        return trace == ProcessTrace.NONE ? trace : new GuardedProcess(trace, stream + "/" + group);
    }

    @Override
    public GroupObservation observe(String stream, String group, List<MetricDefinition> gauges,
                                    Supplier<List<Measurement>> read) {
        String what = "the gauges of " + stream + "/" + group;
        GroupObservation observation = guarded("reporting " + what, () -> inner.observe(stream, group, gauges, read),
                GroupObservation.NONE);
        return observation == GroupObservation.NONE ? observation
                : () -> guarded("ending the report of " + what, observation::close);
    }

    private <R> R guarded(String what, Supplier<R> step, R instead) {
        try {
            return step.get();
        } catch (RuntimeException failure) {
            diagnostics.event(Code.SQL0154, "telemetry failed " + what + ": " + failure);
            return instead;
        }
    }

    private void guarded(String what, Runnable step) {
        guarded(what, () -> {
            step.run();
            return null;
        }, null);
    }

    private final class GuardedSend implements SendTrace {
        private final SendTrace trace;
        private final String stream;

        GuardedSend(SendTrace trace, String stream) {
            this.trace = trace;
            this.stream = stream;
        }

        @Override
        public Map<String, String> headers(Map<String, String> own) {
            return guarded("adding the trace context to a message of " + stream, () -> trace.headers(own), own);
        }

        @Override
        public void sent(List<ProduceResult> results) {
            guarded("ending the send to " + stream, () -> trace.sent(results));
        }

        @Override
        public void failed(RuntimeException failure) {
            guarded("ending the failed send to " + stream, () -> trace.failed(failure));
        }
    }

    private final class GuardedProcess implements ProcessTrace {
        private final ProcessTrace trace;
        private final String group;

        GuardedProcess(ProcessTrace trace, String group) {
            this.trace = trace;
            this.group = group;
        }

        @Override
        public Current makeCurrent() {
            Current current = guarded("making a run of " + group + " current", trace::makeCurrent, Current.NOTHING);
            return () -> guarded("leaving a run of " + group, current::close);
        }

        @Override
        public void ended(RunEnd end, Throwable failure) {
            guarded("ending a run of " + group, () -> trace.ended(end, failure));
        }
    }
}
