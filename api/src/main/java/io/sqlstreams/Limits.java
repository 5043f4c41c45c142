package io.sqlstreams;

import java.time.Duration;
import java.time.Instant;

/**
 * The upper bounds of configuration values. Each configuration type's {@code validate()} checks them before
 * anything is written; a value beyond its bound fails with SQL0108 ({@link InvalidConfigurationException})
 * naming the field and the bound. Lower bounds stay with each type's own rules.
 */
public final class Limits {
    /**
     * The longest timing: every timeout, margin, grace, poll rate, interval, threshold and backoff delay of
     * {@link ConsumeOptions}, {@link MessageOptions}, {@link RetryPolicy}, {@link ConsumerConfig},
     * {@link ProducerConfig}, {@link BatcherConfig}, {@link JanitorConfig} and {@link VacuumConfig},
     * {@link StreamConfig#fenceWarnAfter()}, and a handler's {@link Outcome#delay}: 7 days.
     */
    public static final Duration LONGEST_TIMING = Duration.ofDays(7);

    /**
     * The longest age a stream keeps something for: {@link StreamConfig#retentionTtl()},
     * {@link StreamConfig#idempotencyKeyTtl()}, {@link StreamConfig#emptyCompactionHeadTtl()} and
     * {@link JanitorConfig#partialSweepGracePeriod()}: 36,525 days (100 years).
     */
    public static final Duration LONGEST_AGE = Duration.ofDays(36_525);

    /** The largest {@link StreamConfig#partitionSize()}: 1,000,000,000 rows. */
    public static final long LARGEST_PARTITION_SIZE = 1_000_000_000L;

    /** The earliest {@link MessageOptions#scheduledAt()}: the first instant of year 0000 (RFC 3339's range). */
    public static final Instant EARLIEST_SCHEDULED_AT = Instant.parse("0000-01-01T00:00:00Z");

    /** The latest {@link MessageOptions#scheduledAt()}: the last instant of year 9999 (RFC 3339's range). */
    public static final Instant LATEST_SCHEDULED_AT = Instant.parse("9999-12-31T23:59:59.999999999Z");

    private Limits() {
    }
}
