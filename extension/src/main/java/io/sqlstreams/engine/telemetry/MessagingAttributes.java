package io.sqlstreams.engine.telemetry;

import io.opentelemetry.api.common.AttributeKey;

/** The attributes of {@link MessagingConventions} as OpenTelemetry keys. */
final class MessagingAttributes {
    static final AttributeKey<String> MESSAGING_SYSTEM = string(MessagingConventions.MESSAGING_SYSTEM);
    static final AttributeKey<String> DESTINATION_NAME = string(MessagingConventions.DESTINATION_NAME);
    static final AttributeKey<String> CONSUMER_GROUP_NAME = string(MessagingConventions.CONSUMER_GROUP_NAME);
    static final AttributeKey<String> MESSAGE_ID = string(MessagingConventions.MESSAGE_ID);
    static final AttributeKey<String> OPERATION_NAME = string(MessagingConventions.OPERATION_NAME);
    static final AttributeKey<String> OPERATION_TYPE = string(MessagingConventions.OPERATION_TYPE);
    static final AttributeKey<Long> BATCH_MESSAGE_COUNT = AttributeKey.longKey(MessagingConventions.BATCH_MESSAGE_COUNT);
    static final AttributeKey<String> ERROR_TYPE = string(MessagingConventions.ERROR_TYPE);
    static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey(MessagingConventions.ATTEMPT);
    static final AttributeKey<String> OUTCOME = string(MessagingConventions.OUTCOME);

    private MessagingAttributes() {
    }

    private static AttributeKey<String> string(String name) {
        return AttributeKey.stringKey(name);
    }
}
