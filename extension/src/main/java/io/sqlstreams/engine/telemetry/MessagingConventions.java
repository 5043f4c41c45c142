package io.sqlstreams.engine.telemetry;

import io.opentelemetry.api.common.AttributeKey;

/**
 * The names this library's spans and metrics carry, after the OpenTelemetry messaging semantic conventions
 * v1.27.0 (where {@code messaging.operation.type} {@code send} replaced {@code publish}), plus the library's own
 * {@code sqlstreams.*} names for what the conventions leave open. The one table of names for traces and metrics.
 */
final class MessagingConventions {
    static final String INSTRUMENTATION_SCOPE = "io.sqlstreams";
    static final String SYSTEM = "sqlstreams";
    static final String SEND = "send";
    static final String PROCESS = "process";

    static final AttributeKey<String> MESSAGING_SYSTEM = AttributeKey.stringKey("messaging.system");
    static final AttributeKey<String> DESTINATION_NAME = AttributeKey.stringKey("messaging.destination.name");
    static final AttributeKey<String> CONSUMER_GROUP_NAME = AttributeKey.stringKey("messaging.consumer.group.name");
    static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
    static final AttributeKey<String> OPERATION_NAME = AttributeKey.stringKey("messaging.operation.name");
    static final AttributeKey<String> OPERATION_TYPE = AttributeKey.stringKey("messaging.operation.type");
    static final AttributeKey<Long> BATCH_MESSAGE_COUNT = AttributeKey.longKey("messaging.batch.message_count");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("sqlstreams.delivery.attempt");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("sqlstreams.outcome");

    /** The span event that says how a handler run ended, its {@link #OUTCOME} attribute naming the end. */
    static final String OUTCOME_EVENT = "sqlstreams.outcome";

    static final String SENT_MESSAGES = "messaging.client.sent.messages";
    static final String CONSUMED_MESSAGES = "messaging.client.consumed.messages";
    static final String PROCESS_DURATION = "messaging.process.duration";

    private MessagingConventions() {
    }
}
