package io.sqlstreams.jakarta.config;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;

/** The settings of one group while its properties are bound; every catalogue binder writes into it. */
final class GroupDraft {
    private final MessageDraft message = new MessageDraft();
    private final MessageDraft messageMin = new MessageDraft();
    private final MessageDraft messageMax = new MessageDraft();
    private final ConsumerConfig.Builder declaration = ConsumerConfig.builder();
    private final ConsumeOptions.Builder options = ConsumeOptions.builder();
    private boolean enabled = true;
    private String executorJndiName = GroupSettings.DEFAULT_EXECUTOR_JNDI_NAME;

    MessageDraft message() {
        return message;
    }

    MessageDraft messageMin() {
        return messageMin;
    }

    MessageDraft messageMax() {
        return messageMax;
    }

    ConsumerConfig.Builder declaration() {
        return declaration;
    }

    ConsumeOptions.Builder options() {
        return options;
    }

    void enabled(boolean enabled) {
        this.enabled = enabled;
    }

    void executorJndiName(String executorJndiName) {
        this.executorJndiName = executorJndiName;
    }

    GroupSettings build(GroupAddress address) {
        ConsumerConfig config = declaration.message(message.build()).messageMin(messageMin.build())
                .messageMax(messageMax.build()).build();
        return new GroupSettings(address, config, options.build(), enabled, executorJndiName);
    }
}
