package io.sqlstreams;

import static io.sqlstreams.ConfigAssertions.assertViolations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** MessageOptions helpers and their gotchas (seed 001, digest §4.4). */
class MessageOptionsTest {

    private static final Instant SCHEDULED = Instant.parse("2024-03-01T08:00:00Z");
    private static final Instant OTHER_SCHEDULED = Instant.parse("2030-12-31T23:59:59Z");

    private static Duration s(long seconds) {
        return Duration.ofSeconds(seconds);
    }

    private static MessageOptions copyOf(MessageOptions options) {
        return options == null ? null : options.toBuilder().build();
    }

    @Nested
    class Fill {

        @Test
        void nullWithNullDefaultsIsNull() {
            assertThat(MessageOptions.fill(null, null)).isNull();
        }

        @Test
        void nullReceiverIsACopyOfTheDefaultsWithoutScheduledAt() {
            MessageOptions defaults = new MessageOptions(Concurrency.EXCLUSIVE, s(10),
                    new RetryPolicy(5, 2, s(2), s(60), 3), SCHEDULED);

            MessageOptions filled = MessageOptions.fill(null, defaults);

            assertThat(filled).isEqualTo(new MessageOptions(Concurrency.EXCLUSIVE, s(10),
                    new RetryPolicy(5, 2, s(2), s(60), 3), null));
            assertThat(filled.scheduledAt()).isNull();
        }

        @Test
        void nullDefaultsLeaveTheReceiverAsItIs() {
            MessageOptions options = new MessageOptions(Concurrency.ORDERED, s(3), null, SCHEDULED);

            assertThat(options.fill(null)).isEqualTo(options);
            assertThat(MessageOptions.fill(options, null)).isEqualTo(options);
        }

        @Test
        void receiversSetValuesWinAndUnsetOnesComeFromDefaults() {
            MessageOptions options = new MessageOptions(null, s(20), null, null);
            MessageOptions defaults = new MessageOptions(Concurrency.EXCLUSIVE, s(30),
                    RetryPolicy.consumerDefaults(), null);

            assertThat(options.fill(defaults)).isEqualTo(new MessageOptions(Concurrency.EXCLUSIVE, s(20),
                    RetryPolicy.consumerDefaults(), null));
        }

        @Test
        void setConcurrencyIsKept() {
            MessageOptions options = new MessageOptions(Concurrency.ORDERED, null, null, null);
            MessageOptions defaults = new MessageOptions(Concurrency.EXCLUSIVE, s(30), null, null);

            assertThat(options.fill(defaults).concurrency()).isEqualTo(Concurrency.ORDERED);
        }

        @Test
        void eachRetryFieldIsFilledSeparately() {
            MessageOptions options = new MessageOptions(null, null, new RetryPolicy(5, null, null, null, null), null);
            MessageOptions defaults = new MessageOptions(null, null, new RetryPolicy(3, null, s(2), null, null), null);

            assertThat(options.fill(defaults).retry()).isEqualTo(new RetryPolicy(5, null, s(2), null, null));
        }

        @Test
        void everyRetryFieldFallsThroughIndependently() {
            MessageOptions options = new MessageOptions(null, null, new RetryPolicy(null, 7, null, s(90), null), null);
            MessageOptions defaults = new MessageOptions(null, null, new RetryPolicy(3, 1, s(2), s(60), 4), null);

            assertThat(options.fill(defaults).retry()).isEqualTo(new RetryPolicy(3, 7, s(2), s(90), 4));
        }

        @Test
        void nullRetryTakesTheDefaultPolicyWhole() {
            RetryPolicy defaultsRetry = new RetryPolicy(3, 1, s(2), s(60), 4);
            MessageOptions filled = new MessageOptions(null, s(1), null, null)
                    .fill(new MessageOptions(null, null, defaultsRetry, null));

            assertThat(filled.retry()).isEqualTo(defaultsRetry);
        }

        @Test
        void receiversRetryStaysWhenDefaultsHaveNone() {
            RetryPolicy retry = new RetryPolicy(5, null, null, null, null);

            assertThat(new MessageOptions(null, null, retry, null)
                    .fill(new MessageOptions(null, s(9), null, null)).retry()).isEqualTo(retry);
        }

        @Test
        void scheduledAtComesOnlyFromTheReceiver() {
            MessageOptions defaults = new MessageOptions(null, s(30), null, OTHER_SCHEDULED);

            assertThat(new MessageOptions(null, null, null, null).fill(defaults).scheduledAt()).isNull();
            assertThat(new MessageOptions(null, null, null, SCHEDULED).fill(defaults).scheduledAt())
                    .isEqualTo(SCHEDULED);
        }

        @Test
        void fillDoesNotChangeReceiverOrDefaults() {
            MessageOptions options = new MessageOptions(null, s(5), new RetryPolicy(5, null, null, null, null),
                    SCHEDULED);
            MessageOptions defaults = new MessageOptions(Concurrency.ORDERED, s(30),
                    RetryPolicy.consumerDefaults(), OTHER_SCHEDULED);
            MessageOptions optionsBefore = copyOf(options);
            MessageOptions defaultsBefore = copyOf(defaults);

            options.fill(defaults);

            assertThat(options).isEqualTo(optionsBefore);
            assertThat(defaults).isEqualTo(defaultsBefore);
        }
    }

    @Nested
    class Clamp {

        @Test
        void nullReceiverIsNull() {
            MessageOptions bound = new MessageOptions(null, s(5), RetryPolicy.consumerDefaults(), null);

            assertThat(MessageOptions.clamp(null, bound, bound)).isNull();
            assertThat(MessageOptions.clamp(null, null, null)).isNull();
        }

        @Test
        void valueBelowAPositiveMinimumBecomesTheMinimum() {
            MessageOptions options = new MessageOptions(null, s(1), new RetryPolicy(1, 1, s(1), s(2), 1), null);
            MessageOptions minimum = new MessageOptions(null, s(5), new RetryPolicy(2, 3, s(4), s(8), 2), null);

            assertThat(options.clamp(minimum, null))
                    .isEqualTo(new MessageOptions(null, s(5), new RetryPolicy(2, 3, s(4), s(8), 2), null));
        }

        @Test
        void valueAboveAPositiveMaximumBecomesTheMaximum() {
            MessageOptions options = new MessageOptions(null, s(60), new RetryPolicy(10, 9, s(9), s(900), 5), null);
            MessageOptions maximum = new MessageOptions(null, s(30), RetryPolicy.consumerDefaults(), null);

            assertThat(options.clamp(null, maximum))
                    .isEqualTo(new MessageOptions(null, s(30),
                            new RetryPolicy(3, 9, s(1), Duration.ofMinutes(5), 2), null));
        }

        @Test
        void valuesWithinBoundsAreKept() {
            MessageOptions options = new MessageOptions(null, s(10), new RetryPolicy(3, 2, s(2), s(20), 2), null);
            MessageOptions minimum = new MessageOptions(null, s(5), new RetryPolicy(2, 1, s(1), s(10), 2), null);
            MessageOptions maximum = new MessageOptions(null, s(15), new RetryPolicy(4, 3, s(3), s(30), 2), null);

            assertThat(options.clamp(minimum, maximum)).isEqualTo(options);
        }

        @Test
        void zeroAndUnsetBoundsDoNotConstrain() {
            MessageOptions options = new MessageOptions(null, s(60), new RetryPolicy(10, 5, s(9), s(900), 5), null);
            MessageOptions zeros = new MessageOptions(null, Duration.ZERO,
                    new RetryPolicy(0, 0, Duration.ZERO, Duration.ZERO, 0), null);

            assertThat(options.clamp(zeros, zeros)).isEqualTo(options);
            assertThat(options.clamp(MessageOptions.empty(), MessageOptions.empty())).isEqualTo(options);
            assertThat(options.clamp(null, null)).isEqualTo(options);
        }

        @Test
        void negativeBoundsDoNotConstrain() {
            MessageOptions options = new MessageOptions(null, s(60), new RetryPolicy(10, 5, s(9), s(900), 5), null);
            MessageOptions negative = new MessageOptions(null, s(-1),
                    new RetryPolicy(-1, -1, s(-1), s(-1), -1), null);

            assertThat(options.clamp(negative, negative)).isEqualTo(options);
        }

        @Test
        void onlyThePositiveSideOfMixedBoundsApplies() {
            MessageOptions options = new MessageOptions(null, s(60), new RetryPolicy(10, null, null, null, null), null);
            MessageOptions maximum = new MessageOptions(null, null, new RetryPolicy(4, null, null, null, null), null);

            assertThat(options.clamp(null, maximum))
                    .isEqualTo(new MessageOptions(null, s(60), new RetryPolicy(4, null, null, null, null), null));
        }

        @Test
        void unsetValuesStayUnset() {
            MessageOptions options = new MessageOptions(null, null, new RetryPolicy(5, null, null, null, null), null);
            MessageOptions minimum = new MessageOptions(null, s(5), new RetryPolicy(1, 1, s(1), s(1), 1), null);

            assertThat(options.clamp(minimum, null))
                    .isEqualTo(new MessageOptions(null, null, new RetryPolicy(5, null, null, null, null), null));
        }

        @Test
        void nullRetryStaysNull() {
            MessageOptions options = new MessageOptions(null, s(10), null, null);
            MessageOptions minimum = new MessageOptions(null, null, new RetryPolicy(2, 2, s(2), s(2), 2), null);
            MessageOptions maximum = new MessageOptions(null, null, RetryPolicy.consumerDefaults(), null);

            assertThat(options.clamp(minimum, maximum).retry()).isNull();
        }

        @Test
        void concurrencyAndScheduledAtPassThrough() {
            MessageOptions options = new MessageOptions(Concurrency.EXCLUSIVE, s(60), null, SCHEDULED);
            MessageOptions minimum = new MessageOptions(Concurrency.ORDERED, s(1), null, OTHER_SCHEDULED);
            MessageOptions maximum = new MessageOptions(Concurrency.PARALLEL, s(30), null, Instant.EPOCH);

            MessageOptions clamped = options.clamp(minimum, maximum);

            assertThat(clamped.concurrency()).isEqualTo(Concurrency.EXCLUSIVE);
            assertThat(clamped.scheduledAt()).isEqualTo(SCHEDULED);
            assertThat(clamped.timeout()).isEqualTo(s(30));
            assertThat(new MessageOptions(null, null, null, null).clamp(minimum, maximum))
                    .isEqualTo(new MessageOptions(null, null, null, null));
        }

        @Test
        void clampDoesNotChangeItsArguments() {
            MessageOptions options = new MessageOptions(null, s(60), new RetryPolicy(10, 5, s(9), s(900), 5), null);
            MessageOptions maximum = new MessageOptions(null, s(30), RetryPolicy.consumerDefaults(), null);
            MessageOptions optionsBefore = copyOf(options);
            MessageOptions maximumBefore = copyOf(maximum);

            options.clamp(null, maximum);

            assertThat(options).isEqualTo(optionsBefore);
            assertThat(maximum).isEqualTo(maximumBefore);
        }
    }

    @Nested
    class ResolveConcurrency {

        @ParameterizedTest
        @EnumSource(Concurrency.class)
        void nullReceiverGivesAFreshValueHoldingTheOverride(Concurrency override) {
            assertThat(MessageOptions.resolveConcurrency(null, override))
                    .isEqualTo(new MessageOptions(override, null, null, null));
        }

        @Test
        void nullReceiverWithoutOverrideIsParallel() {
            assertThat(MessageOptions.resolveConcurrency(null, null))
                    .isEqualTo(new MessageOptions(Concurrency.PARALLEL, null, null, null));
        }

        @Test
        void overrideWinsOverTheOwnPolicy() {
            MessageOptions options = new MessageOptions(Concurrency.EXCLUSIVE, s(5), null, SCHEDULED);

            assertThat(options.resolveConcurrency(Concurrency.PARALLEL))
                    .isEqualTo(new MessageOptions(Concurrency.PARALLEL, s(5), null, SCHEDULED));
            assertThat(options.resolveConcurrency(Concurrency.ORDERED).concurrency()).isEqualTo(Concurrency.ORDERED);
        }

        @Test
        void withoutOverrideTheOwnPolicyStands() {
            MessageOptions options = new MessageOptions(Concurrency.ORDERED, s(5), null, null);

            assertThat(options.resolveConcurrency(null)).isEqualTo(options);
        }

        @Test
        void withNeitherItIsParallel() {
            MessageOptions options = new MessageOptions(null, s(5), RetryPolicy.consumerDefaults(), SCHEDULED);

            assertThat(options.resolveConcurrency(null))
                    .isEqualTo(new MessageOptions(Concurrency.PARALLEL, s(5), RetryPolicy.consumerDefaults(), SCHEDULED));
        }

        @Test
        void sharesTheRetryPolicyInstance() {
            RetryPolicy retry = new RetryPolicy(5, null, s(2), null, null);
            MessageOptions options = new MessageOptions(Concurrency.EXCLUSIVE, null, retry, null);

            assertThat(options.resolveConcurrency(Concurrency.PARALLEL).retry()).isSameAs(retry);
            assertThat(options.resolveConcurrency(null).retry()).isSameAs(retry);
        }

        @Test
        void doesNotChangeItsReceiver() {
            MessageOptions options = new MessageOptions(null, s(5), null, null);
            MessageOptions before = copyOf(options);

            options.resolveConcurrency(Concurrency.EXCLUSIVE);

            assertThat(options).isEqualTo(before);
            assertThat(options.concurrency()).isNull();
        }
    }

    @Nested
    class Equality {

        @Test
        void twoNullsAreEqual() {
            assertThat(MessageOptions.equal(null, null)).isTrue();
        }

        @Test
        void nullIsNotTheEmptyValue() {
            assertThat(MessageOptions.equal(null, MessageOptions.empty())).isFalse();
            assertThat(MessageOptions.equal(MessageOptions.empty(), null)).isFalse();
            assertThat(MessageOptions.equal(MessageOptions.empty(), new MessageOptions(null, null, null, null)))
                    .isTrue();
        }

        @Test
        void scheduledAtIsComparedAsAnInstant() {
            Instant utc = Instant.parse("2024-01-01T10:00:00Z");
            Instant fromOffset = OffsetDateTime.parse("2024-01-01T12:00:00+02:00").toInstant();

            assertThat(MessageOptions.equal(new MessageOptions(null, null, null, utc),
                    new MessageOptions(null, null, null, fromOffset))).isTrue();
            assertThat(MessageOptions.equal(new MessageOptions(null, null, null, utc),
                    new MessageOptions(null, null, null, utc.plusNanos(1)))).isFalse();
        }

        @Test
        void storedValuesAreComparedWithoutDefaults() {
            MessageOptions unset = new MessageOptions(null, null, null, null);
            MessageOptions explicitDefault = new MessageOptions(Concurrency.PARALLEL, s(30),
                    RetryPolicy.consumerDefaults(), null);

            assertThat(MessageOptions.equal(unset, explicitDefault)).isFalse();
            assertThat(MessageOptions.equal(
                    new MessageOptions(null, null, RetryPolicy.consumerDefaults(), null),
                    new MessageOptions(null, null, RetryPolicy.consumerDefaults().toBuilder().maxDelays(1).build(),
                            null))).isFalse();
        }

        @Test
        void zeroTimeoutIsUnset() {
            assertThat(new MessageOptions(null, Duration.ZERO, null, null)).isEqualTo(MessageOptions.empty());
            assertThat(new MessageOptions(null, Duration.ZERO, null, null).timeout()).isNull();
        }
    }

    @Nested
    class Validate {

        @Test
        void validSparseDocumentsPass() {
            assertThatCode(() -> MessageOptions.empty().validate()).doesNotThrowAnyException();
            assertThatCode(() -> new MessageOptions(Concurrency.ORDERED, s(10),
                    new RetryPolicy(5, null, s(2), null, null), SCHEDULED).validate()).doesNotThrowAnyException();
            assertThatCode(() -> new MessageOptions(null, null, new RetryPolicy(null, null, s(5), s(5), null), null)
                    .validate()).doesNotThrowAnyException();
        }

        @Test
        void negativeTimeoutIsRejected() {
            assertViolations(new MessageOptions(null, s(-1), null, null)::validate, "message.timeout");
        }

        @Test
        void everyNegativeRetryFieldIsListed() {
            MessageOptions options = new MessageOptions(null, s(-1),
                    new RetryPolicy(-1, -1, s(-1), s(-1), -1), null);

            assertViolations(options::validate, "message.timeout", "message.retry.maxRetries",
                    "message.retry.maxDelays", "message.retry.baseDelay", "message.retry.maxDelay",
                    "message.retry.exponent");
        }

        @Test
        void maxDelayBelowBaseDelayIsListedWithTheOtherRules() {
            MessageOptions options = new MessageOptions(null, s(-3),
                    new RetryPolicy(-2, null, s(10), s(5), null), null);

            assertViolations(options::validate, "message.timeout", "message.retry.maxRetries",
                    "message.retry.maxDelay");
        }

        @Test
        void aScheduledAtOutsideTheWritableYearsIsRejected() {
            for (Instant outside : new Instant[] {Instant.MAX, Instant.MIN,
                    Limits.LATEST_SCHEDULED_AT.plusNanos(1), Limits.EARLIEST_SCHEDULED_AT.minusNanos(1)}) {
                InvalidConfigurationException thrown = assertViolations(
                        new MessageOptions(null, null, null, outside)::validate, "message.scheduledAt");
                assertThat(thrown.getMessage()).as("%s", outside).contains(Limits.LATEST_SCHEDULED_AT.toString());
            }
            for (Instant inside : new Instant[] {Limits.EARLIEST_SCHEDULED_AT, Limits.LATEST_SCHEDULED_AT}) {
                assertThatCode(new MessageOptions(null, null, null, inside)::validate).doesNotThrowAnyException();
            }
        }

        @Test
        void maxDelayAloneOrBaseDelayAloneIsNotCompared() {
            assertThatCode(() -> new MessageOptions(null, null, new RetryPolicy(null, null, s(10), null, null), null)
                    .validate()).doesNotThrowAnyException();
            assertThatCode(() -> new MessageOptions(null, null, new RetryPolicy(null, null, null, s(1), null), null)
                    .validate()).doesNotThrowAnyException();
        }
    }
}
