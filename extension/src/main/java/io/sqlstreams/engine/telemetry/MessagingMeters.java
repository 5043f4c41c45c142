package io.sqlstreams.engine.telemetry;

import java.time.Duration;

/**
 * Where the messaging metrics go: OpenTelemetry's meter, or a host's own registry (MicroProfile Metrics on a server
 * whose OpenTelemetry exports no metrics). Names and meanings are those of {@link MessagingConventions}.
 */
public interface MessagingMeters {
    MessagingMeters NONE = new MessagingMeters() {
        @Override
        public void sent(String stream, long messages) {
        }

        @Override
        public void consumed(String stream, String group) {
        }

        @Override
        public void processed(String stream, String group, Duration took, String errorType) {
        }

        @Override
        public GroupObservation observe(GroupGaugeReading gauges) {
            return GroupObservation.NONE;
        }
    };

    /** {@code messaging.client.sent.messages}: {@code messages} written to {@code stream}. */
    void sent(String stream, long messages);

    /** {@code messaging.client.consumed.messages}: a handler run of {@code group} starts. */
    void consumed(String stream, String group);

    /**
     * {@code messaging.process.duration}: a handler run of {@code group} took {@code took}.
     *
     * @param errorType the failure's class name for a failed run, else null
     */
    void processed(String stream, String group, Duration took, String errorType);

    /**
     * A group's built-in gauges ({@link GroupGaugeReading#definitions()}) are reported, each read through
     * {@code gauges} when collected, until the returned observation closes.
     */
    GroupObservation observe(GroupGaugeReading gauges);
}
