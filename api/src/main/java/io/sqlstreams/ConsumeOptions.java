package io.sqlstreams;

import java.time.Duration;

/**
 * How one consume session runs on this box: throughput knobs, this process's own latencies and its
 * lifecycle. Never stored; instances of one group may differ. What the group means is
 * {@link ConsumerConfig}.
 *
 * <p>Every field is optional: {@code null} or zero means the default.
 *
 * @param batchLimit              messages claimed per poll (the range size). Default 4, growing while a backlog lasts for a
 *                                plain handler (an explicit value is used as given).
 * @param queueSize               claimed messages buffered ahead of processing; at least batchLimit.
 *                                Default: batchLimit × messageConcurrency, room for a batch per handler
 *                                slot, so a range waiting in the key gate (it keeps its room) does not stop
 *                                the claims that feed the other slots. An explicit value is used as given; an
 *                                explicit queue below 4 needs an explicit, compatible batchLimit (set both to 1
 *                                for shallow prefetch).
 * @param messageConcurrency      messages this instance processes at once; for a handler that runs whole
 *                                ranges (transactional, batch, or in the host's transactions), ranges at
 *                                once. Default 1. Not to be confused with the group's
 *                                {@link ConsumerConfig#concurrencyOverride()}.
 * @param claimPollRate           how often an idle instance polls. Default 500 ms.
 * @param queueMargin             lease padding for the time a claim waits in the local queue. Default 15 s.
 * @param recordMargin            lease padding for recording outcomes. Default 2 s.
 * @param timeoutGrace            slack for a handler that honoured its interruption to unwind before it
 *                                is abandoned. Default 100 ms.
 * @param slowDispatchThreshold   a dispatch running longer logs SQL0039, one line per slow delivery naming the
 *                                message, the group, the time taken and the threshold. A dispatch runs from
 *                                the handler runner taking the delivery to its outcome: decoding, the wait for
 *                                a handler thread, the handler and the classification of what it threw; runs
 *                                of the exception path count as well. Default: off.
 * @param instanceTtl             how long this instance's liveness rows stay live without a heartbeat
 *                                (renewed every half of it). Default 30 s.
 * @param bindingRetryInterval    how often a waiting binding declaration is retried. Default 10 s.
 * @param configRefreshInterval   how often the stored group declaration is re-read: the staleness window
 *                                of a redeclaration. Default 30 s.
 * @param shutdownTimeout         how long the drain waits for in-flight handlers. Default: derived as the
 *                                group's messageMax timeout + timeoutGrace + recordMargin (32.1 s).
 * @param disableGracefulShutdown stop the session as a process exit would, without a drain: a stop (stop(),
 *                                close(), an interrupt, undeploy) does not wait for handlers in flight, and
 *                                neither the shutdown timeout nor stop(Duration)'s budget is waited. It records
 *                                the outcomes already known (the resolved prefix of each range) and leaves
 *                                everything else under its lease (unstarted ranges, the unresolved rest of a
 *                                range, exception rows in flight) until the lease expires and another session
 *                                reclaims it; it still releases its instance rows and logs SQL0041. A handler
 *                                left in flight keeps running on its thread, is no longer interrupted at its
 *                                timeout, and what it returns is not recorded: it runs again elsewhere after
 *                                the lease expires. (In the Go library the option accepts a context that can
 *                                never be cancelled; every Java session can be stopped, so that case, SQL0002,
 *                                never arises here. Once the library runs a system manager, a session with
 *                                this option will not run it.) Default false.
 */
public record ConsumeOptions(Integer batchLimit, Integer queueSize, Integer messageConcurrency,
                             Duration claimPollRate, Duration queueMargin, Duration recordMargin,
                             Duration timeoutGrace, Duration slowDispatchThreshold, Duration instanceTtl,
                             Duration bindingRetryInterval, Duration configRefreshInterval,
                             Duration shutdownTimeout, boolean disableGracefulShutdown) {

    public static final int DEFAULT_BATCH_LIMIT = 4;
    public static final int DEFAULT_MESSAGE_CONCURRENCY = 1;
    public static final Duration DEFAULT_CLAIM_POLL_RATE = Duration.ofMillis(500);
    public static final Duration DEFAULT_QUEUE_MARGIN = Duration.ofSeconds(15);
    public static final Duration DEFAULT_RECORD_MARGIN = Duration.ofSeconds(2);
    public static final Duration DEFAULT_TIMEOUT_GRACE = Duration.ofMillis(100);
    public static final Duration DEFAULT_INSTANCE_TTL = Duration.ofSeconds(30);
    public static final Duration DEFAULT_BINDING_RETRY_INTERVAL = Duration.ofSeconds(10);
    public static final Duration DEFAULT_CONFIG_REFRESH_INTERVAL = Duration.ofSeconds(30);

    private static final ConsumeOptions DEFAULTS =
            new ConsumeOptions(null, null, null, null, null, null, null, null, null, null, null, null, false);

    public ConsumeOptions {
        batchLimit = Unset.ifZero(batchLimit);
        queueSize = Unset.ifZero(queueSize);
        messageConcurrency = Unset.ifZero(messageConcurrency);
        claimPollRate = Unset.ifZero(claimPollRate);
        queueMargin = Unset.ifZero(queueMargin);
        recordMargin = Unset.ifZero(recordMargin);
        timeoutGrace = Unset.ifZero(timeoutGrace);
        slowDispatchThreshold = Unset.ifZero(slowDispatchThreshold);
        instanceTtl = Unset.ifZero(instanceTtl);
        bindingRetryInterval = Unset.ifZero(bindingRetryInterval);
        configRefreshInterval = Unset.ifZero(configRefreshInterval);
        shutdownTimeout = Unset.ifZero(shutdownTimeout);
    }

    /** Every field at its default. */
    public static ConsumeOptions defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().batchLimit(batchLimit).queueSize(queueSize).messageConcurrency(messageConcurrency)
                .claimPollRate(claimPollRate).queueMargin(queueMargin).recordMargin(recordMargin)
                .timeoutGrace(timeoutGrace).slowDispatchThreshold(slowDispatchThreshold).instanceTtl(instanceTtl)
                .bindingRetryInterval(bindingRetryInterval).configRefreshInterval(configRefreshInterval)
                .shutdownTimeout(shutdownTimeout).disableGracefulShutdown(disableGracefulShutdown);
    }

    public int resolvedBatchLimit() {
        return Unset.or(batchLimit, DEFAULT_BATCH_LIMIT);
    }

    /** The explicit queueSize, else batchLimit × messageConcurrency (at most {@link Integer#MAX_VALUE}). */
    public int resolvedQueueSize() {
        if (queueSize != null) {
            return queueSize;
        }
        return (int) Math.min(Integer.MAX_VALUE, (long) resolvedBatchLimit() * resolvedMessageConcurrency());
    }

    public int resolvedMessageConcurrency() {
        return Unset.or(messageConcurrency, DEFAULT_MESSAGE_CONCURRENCY);
    }

    public Duration resolvedClaimPollRate() {
        return Unset.or(claimPollRate, DEFAULT_CLAIM_POLL_RATE);
    }

    public Duration resolvedQueueMargin() {
        return Unset.or(queueMargin, DEFAULT_QUEUE_MARGIN);
    }

    public Duration resolvedRecordMargin() {
        return Unset.or(recordMargin, DEFAULT_RECORD_MARGIN);
    }

    public Duration resolvedTimeoutGrace() {
        return Unset.or(timeoutGrace, DEFAULT_TIMEOUT_GRACE);
    }

    /** The slow-dispatch threshold, or {@link Duration#ZERO} when the warning is off. */
    public Duration resolvedSlowDispatchThreshold() {
        return Unset.or(slowDispatchThreshold, Duration.ZERO);
    }

    public Duration resolvedInstanceTtl() {
        return Unset.or(instanceTtl, DEFAULT_INSTANCE_TTL);
    }

    public Duration resolvedBindingRetryInterval() {
        return Unset.or(bindingRetryInterval, DEFAULT_BINDING_RETRY_INTERVAL);
    }

    public Duration resolvedConfigRefreshInterval() {
        return Unset.or(configRefreshInterval, DEFAULT_CONFIG_REFRESH_INTERVAL);
    }

    /**
     * The drain budget: the explicit shutdownTimeout, else the group's messageMax timeout + timeoutGrace +
     * recordMargin (32.1 s with every default). Recomputed at drain time, so a refreshed ceiling moves it.
     */
    public Duration resolvedShutdownTimeout(ConsumerConfig group) {
        if (shutdownTimeout != null) {
            return shutdownTimeout;
        }
        return maxHandlerTime(group).plus(resolvedRecordMargin());
    }

    /**
     * How long one claimed range is leased: the group's messageMax timeout + timeoutGrace + queueMargin +
     * recordMargin (47.1 s with every default). A crashed instance's range waits this long for a reclaim.
     */
    public Duration rangeLeaseDuration(ConsumerConfig group) {
        return maxHandlerTime(group).plus(resolvedQueueMargin()).plus(resolvedRecordMargin());
    }

    private Duration maxHandlerTime(ConsumerConfig group) {
        return group.resolvedMessageMax().timeout().plus(resolvedTimeoutGrace());
    }

    /**
     * Checks every option: counts at least 1, durations neither negative nor longer than
     * {@link Limits#LONGEST_TIMING}, and a queue no smaller than the batch it buffers.
     *
     * @throws InvalidConfigurationException (SQL0108) listing every broken rule
     */
    public void validate() {
        Violations violations = new Violations();
        violations.atLeast("batchLimit", batchLimit, 1);
        violations.atLeast("queueSize", queueSize, 1);
        violations.atLeast("messageConcurrency", messageConcurrency, 1);
        violations.timing("claimPollRate", claimPollRate);
        violations.timing("queueMargin", queueMargin);
        violations.timing("recordMargin", recordMargin);
        violations.timing("timeoutGrace", timeoutGrace);
        violations.timing("slowDispatchThreshold", slowDispatchThreshold);
        violations.timing("instanceTtl", instanceTtl);
        violations.timing("bindingRetryInterval", bindingRetryInterval);
        violations.timing("configRefreshInterval", configRefreshInterval);
        violations.timing("shutdownTimeout", shutdownTimeout);
        if (queueSize != null && queueSize >= 1 && resolvedBatchLimit() >= 1) {
            violations.require(queueSize >= resolvedBatchLimit(), "queueSize", queueSize,
                    "must be at least batchLimit (" + resolvedBatchLimit()
                            + (batchLimit == null ? ", the default; set batchLimit to a value no larger than the queue"
                            : "") + ")");
        }
        violations.throwIfAny();
    }

    /** Builds options field by field; unset fields stay null. */
    public static final class Builder {
        private Integer batchLimit;
        private Integer queueSize;
        private Integer messageConcurrency;
        private Duration claimPollRate;
        private Duration queueMargin;
        private Duration recordMargin;
        private Duration timeoutGrace;
        private Duration slowDispatchThreshold;
        private Duration instanceTtl;
        private Duration bindingRetryInterval;
        private Duration configRefreshInterval;
        private Duration shutdownTimeout;
        private boolean disableGracefulShutdown;

        private Builder() {
        }

        public Builder batchLimit(Integer batchLimit) {
            this.batchLimit = batchLimit;
            return this;
        }

        public Builder queueSize(Integer queueSize) {
            this.queueSize = queueSize;
            return this;
        }

        public Builder messageConcurrency(Integer messageConcurrency) {
            this.messageConcurrency = messageConcurrency;
            return this;
        }

        public Builder claimPollRate(Duration claimPollRate) {
            this.claimPollRate = claimPollRate;
            return this;
        }

        public Builder queueMargin(Duration queueMargin) {
            this.queueMargin = queueMargin;
            return this;
        }

        public Builder recordMargin(Duration recordMargin) {
            this.recordMargin = recordMargin;
            return this;
        }

        public Builder timeoutGrace(Duration timeoutGrace) {
            this.timeoutGrace = timeoutGrace;
            return this;
        }

        public Builder slowDispatchThreshold(Duration slowDispatchThreshold) {
            this.slowDispatchThreshold = slowDispatchThreshold;
            return this;
        }

        public Builder instanceTtl(Duration instanceTtl) {
            this.instanceTtl = instanceTtl;
            return this;
        }

        public Builder bindingRetryInterval(Duration bindingRetryInterval) {
            this.bindingRetryInterval = bindingRetryInterval;
            return this;
        }

        public Builder configRefreshInterval(Duration configRefreshInterval) {
            this.configRefreshInterval = configRefreshInterval;
            return this;
        }

        public Builder shutdownTimeout(Duration shutdownTimeout) {
            this.shutdownTimeout = shutdownTimeout;
            return this;
        }

        public Builder disableGracefulShutdown(boolean disableGracefulShutdown) {
            this.disableGracefulShutdown = disableGracefulShutdown;
            return this;
        }

        public ConsumeOptions build() {
            return new ConsumeOptions(batchLimit, queueSize, messageConcurrency, claimPollRate, queueMargin,
                    recordMargin, timeoutGrace, slowDispatchThreshold, instanceTtl, bindingRetryInterval,
                    configRefreshInterval, shutdownTimeout, disableGracefulShutdown);
        }
    }
}
