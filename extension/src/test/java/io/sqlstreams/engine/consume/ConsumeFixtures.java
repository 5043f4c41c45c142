package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StreamHandle;

/** Shared pieces of the consume tests: a payload, fast-moving options, and bulk producing. */
public final class ConsumeFixtures {
    private ConsumeFixtures() {
    }

    /** A numbered test payload. */
    @SchemaVersion(1)
    public record Numbered(long n) {
    }

    /**
     * A declaration whose retries come quickly: first retry after 10 ms, then 10 ms doubling up to 50 ms,
     * {@code maxRetries} attempts, and a handler timeout of {@code timeout}.
     */
    public static ConsumerConfig quickRetries(int maxRetries, Duration timeout) {
        return ConsumerConfig.builder()
                .exceptionInitialBackoff(Duration.ofMillis(10))
                .message(MessageOptions.builder().timeout(timeout).retry(RetryPolicy.builder().maxRetries(maxRetries)
                        .baseDelay(Duration.ofMillis(10)).maxDelay(Duration.ofMillis(50)).build()).build())
                .build();
    }

    /**
     * Session options with short polls and margins, so a crashed session's range is reclaimable about
     * {@code timeout} + 400 ms after its claim.
     */
    public static ConsumeOptions.Builder fastSession() {
        return ConsumeOptions.builder()
                .claimPollRate(Duration.ofMillis(20))
                .queueMargin(Duration.ofMillis(200))
                .recordMargin(Duration.ofMillis(100))
                .timeoutGrace(Duration.ofMillis(100))
                .instanceTtl(Duration.ofSeconds(2))
                .configRefreshInterval(Duration.ofMillis(200));
    }

    /** Produces payloads {@code 1..count} in one transaction and returns their results in order. */
    public static List<ProduceResult> produceNumbered(StreamHandle<Numbered> stream, int count) {
        try (Producer<Numbered> producer = stream.producer().register()) {
            return producer.produceBatch(IntStream.rangeClosed(1, count)
                    .mapToObj(n -> ProduceItem.of(new Numbered(n))).toList());
        }
    }
}
