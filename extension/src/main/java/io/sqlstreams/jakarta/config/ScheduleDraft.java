package io.sqlstreams.jakarta.config;

import java.time.Duration;

import io.sqlstreams.Concurrency;

/** One schedule's properties while they are bound; each stays null while unset. */
final class ScheduleDraft {
    String stream;
    String expression;
    String payload;
    String payloadType;
    Duration timeout;
    Concurrency concurrency;
}
