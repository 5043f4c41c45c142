package io.sqlstreams.engine.telemetry;

/**
 * The names this library's spans and metrics carry, after the OpenTelemetry messaging semantic conventions
 * v1.27.0 (where {@code messaging.operation.type} {@code send} replaced {@code publish}), plus the library's own
 * {@code sqlstreams.*} names for what the conventions leave open: the one table of names for traces and for metrics,
 * whichever API records them.
 */
public final class MessagingConventions {
    public static final String INSTRUMENTATION_SCOPE = "io.sqlstreams";
    public static final String SYSTEM = "sqlstreams";
    public static final String SEND = "send";
    public static final String PROCESS = "process";

    public static final String MESSAGING_SYSTEM = "messaging.system";
    public static final String DESTINATION_NAME = "messaging.destination.name";
    public static final String CONSUMER_GROUP_NAME = "messaging.consumer.group.name";
    public static final String MESSAGE_ID = "messaging.message.id";
    public static final String OPERATION_NAME = "messaging.operation.name";
    public static final String OPERATION_TYPE = "messaging.operation.type";
    public static final String BATCH_MESSAGE_COUNT = "messaging.batch.message_count";
    public static final String ERROR_TYPE = "error.type";
    public static final String ATTEMPT = "sqlstreams.delivery.attempt";
    public static final String OUTCOME = "sqlstreams.outcome";

    /** The span event that says how a handler run ended, its {@link #OUTCOME} attribute naming the end. */
    public static final String OUTCOME_EVENT = "sqlstreams.outcome";

    public static final String SENT_MESSAGES = "messaging.client.sent.messages";
    public static final String CONSUMED_MESSAGES = "messaging.client.consumed.messages";
    public static final String PROCESS_DURATION = "messaging.process.duration";
    public static final String SENT_MESSAGES_DESCRIPTION =
            "Messages produced to a stream (duplicates of an idempotency key not counted).";
    public static final String CONSUMED_MESSAGES_DESCRIPTION =
            "Handler runs started for a consumer group's deliveries.";
    public static final String PROCESS_DURATION_DESCRIPTION = "How long handler runs took, whatever their outcome.";

    private MessagingConventions() {
    }
}
