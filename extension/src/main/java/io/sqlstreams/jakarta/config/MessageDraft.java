package io.sqlstreams.jakarta.config;

import io.sqlstreams.MessageOptions;
import io.sqlstreams.RetryPolicy;

/**
 * One {@link MessageOptions} of a group declaration being built. It stays {@code null} (and its retry
 * policy stays {@code null}) until a property sets one of its fields, so the declaration is as sparse as
 * the configuration.
 */
final class MessageDraft {
    private final MessageOptions.Builder options = MessageOptions.builder();
    private final RetryPolicy.Builder retry = RetryPolicy.builder();
    private boolean optionsSet;
    private boolean retrySet;

    MessageOptions.Builder options() {
        optionsSet = true;
        return options;
    }

    RetryPolicy.Builder retry() {
        optionsSet = true;
        retrySet = true;
        return retry;
    }

    MessageOptions build() {
        return optionsSet ? options.retry(retrySet ? retry.build() : null).build() : null;
    }
}
