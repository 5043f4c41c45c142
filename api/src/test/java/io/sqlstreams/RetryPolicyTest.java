package io.sqlstreams;

import static io.sqlstreams.ConfigAssertions.assertViolations;
import static io.sqlstreams.ConfigAssertions.invalid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.Objects;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** RetryPolicy: worked numbers (digest §4.5), defaults (§4.2), validation and equality. */
class RetryPolicyTest {

    private static Duration s(long seconds) {
        return Duration.ofSeconds(seconds);
    }

    private static Duration[] delays(RetryPolicy policy, int count) {
        return IntStream.range(0, count).mapToObj(policy::calculateDelay).toArray(Duration[]::new);
    }

    @Nested
    class WorkedNumbers {

        @Test
        void fourAttemptsOneSecondBaseDoublingCappedAtFiveSeconds() {
            RetryPolicy policy = new RetryPolicy(4, null, s(1), s(5), 2);

            assertThat(delays(policy, 5)).containsExactly(s(1), s(2), s(4), s(5), s(5));
            assertThat(policy.calculateTotalDelay()).isEqualTo(s(7));
        }

        @Test
        void clientDefaultCurve() {
            RetryPolicy policy = RetryPolicy.clientDefaults();

            assertThat(delays(policy, 6)).containsExactly(s(1), s(2), s(4), s(8), s(16), s(32));
            assertThat(policy.calculateTotalDelay()).isEqualTo(s(31));
        }

        @Test
        void consumerDefaultCurve() {
            RetryPolicy policy = RetryPolicy.consumerDefaults();

            assertThat(delays(policy, 3)).containsExactly(s(1), s(2), s(4));
            assertThat(policy.calculateTotalDelay()).isEqualTo(s(3));
        }

        @Test
        void chargeCardsCurveStartsAtTwoSeconds() {
            RetryPolicy policy = new RetryPolicy(3, null, s(2), Duration.ofMinutes(5), 2);

            assertThat(delays(policy, 4)).containsExactly(s(2), s(4), s(8), s(16));
            assertThat(policy.calculateTotalDelay()).isEqualTo(s(6));
        }

        @Test
        void attemptNineIsCappedAtFiveMinutes() {
            RetryPolicy policy = new RetryPolicy(null, null, s(1), Duration.ofMinutes(5), 2);

            assertThat(policy.calculateDelay(8)).isEqualTo(s(256));
            assertThat(policy.calculateDelay(9)).isEqualTo(s(300)); // 512 s capped
            assertThat(policy.calculateDelay(30)).isEqualTo(s(300));
        }

        @Test
        void calculateDelayDoesNotStopAtMaxRetries() {
            RetryPolicy policy = new RetryPolicy(2, null, s(1), Duration.ofMinutes(5), 2);

            assertThat(policy.calculateDelay(5)).isEqualTo(s(32));
            assertThat(policy.calculateTotalDelay()).isEqualTo(s(1));
        }

        @Test
        void otherExponentsAndFractionalBases() {
            assertThat(delays(new RetryPolicy(5, null, s(1), Duration.ofMinutes(5), 3), 5))
                    .containsExactly(s(1), s(3), s(9), s(27), s(81));
            assertThat(delays(new RetryPolicy(5, null, s(2), Duration.ofMinutes(5), 1), 4))
                    .containsExactly(s(2), s(2), s(2), s(2));
            assertThat(delays(new RetryPolicy(5, null, Duration.ofMillis(1500), s(10), 2), 4))
                    .containsExactly(Duration.ofMillis(1500), s(3), s(6), s(10));
        }

        @Test
        void baseAboveTheCapIsCappedFromTheFirstAttempt() {
            RetryPolicy policy = new RetryPolicy(3, null, s(10), s(4), 2);

            assertThat(policy.calculateDelay(0)).isEqualTo(s(4));
            assertThat(policy.calculateTotalDelay()).isEqualTo(s(8));
        }

        @Test
        void maxDelaysAffectsNeitherCalculation() {
            RetryPolicy without = new RetryPolicy(4, null, s(1), s(5), 2);
            RetryPolicy with = new RetryPolicy(4, 2, s(1), s(5), 2);
            RetryPolicy withMany = new RetryPolicy(4, 1000, s(1), s(5), 2);

            for (int attempt = 0; attempt < 10; attempt++) {
                assertThat(with.calculateDelay(attempt)).isEqualTo(without.calculateDelay(attempt));
                assertThat(withMany.calculateDelay(attempt)).isEqualTo(without.calculateDelay(attempt));
            }
            assertThat(with.calculateTotalDelay()).isEqualTo(s(7));
            assertThat(withMany.calculateTotalDelay()).isEqualTo(s(7));
        }

        @Test
        void hugeAttemptReturnsTheCapQuickly() {
            RetryPolicy doubling = RetryPolicy.clientDefaults();
            RetryPolicy tripling = new RetryPolicy(3, null, Duration.ofNanos(1), s(7), 3);
            RetryPolicy flat = new RetryPolicy(3, null, s(2), s(7), 1);

            assertTimeoutPreemptively(Duration.ofSeconds(2), () -> {
                assertThat(doubling.calculateDelay(Integer.MAX_VALUE)).isEqualTo(Duration.ofMinutes(5));
                assertThat(tripling.calculateDelay(Integer.MAX_VALUE)).isEqualTo(s(7));
                assertThat(flat.calculateDelay(Integer.MAX_VALUE)).isEqualTo(s(2));
            });
        }

        @Test
        void hugeMaxRetriesTotalIsComputedQuickly() {
            RetryPolicy policy = new RetryPolicy(Integer.MAX_VALUE, null, s(1), s(1), 2);

            Duration total = assertTimeoutPreemptively(Duration.ofSeconds(2), policy::calculateTotalDelay);

            assertThat(total).isEqualTo(s(Integer.MAX_VALUE - 1L));
        }

        @ParameterizedTest(name = "maxRetries {0} sleeps nothing")
        @ValueSource(ints = {1, 0, -1, -100, Integer.MIN_VALUE + 1, Integer.MIN_VALUE})
        void noSleepsWithoutASecondAttempt(int maxRetries) {
            // Σ calculateDelay(a) for a = 0 … maxRetries − 2 is an empty sum (digest §4.5)
            RetryPolicy policy = new RetryPolicy(maxRetries, null, s(1), Duration.ofMinutes(5), 2);

            assertThat(policy.calculateTotalDelay()).isEqualTo(Duration.ZERO);
        }

        @Test
        void unsetMaxRetriesSleepsNothing() {
            assertThat(new RetryPolicy(null, null, s(1), s(5), 2).calculateTotalDelay()).isEqualTo(Duration.ZERO);
        }

        @Test
        void oversizedTotalNeverComesOutNegative() {
            RetryPolicy policy = new RetryPolicy(1000, null, Duration.ofDays(1), Duration.ofDays(1000), 2);

            assertThat(policy.calculateTotalDelay()).isPositive();
        }
    }

    @Nested
    class Defaults {

        @Test
        void clientDefaultsAreSixAttemptsOnTheDefaultCurve() {
            assertThat(RetryPolicy.clientDefaults())
                    .isEqualTo(new RetryPolicy(6, null, s(1), Duration.ofMinutes(5), 2));
        }

        @Test
        void consumerDefaultsAreThreeAttemptsOnTheSameCurve() {
            RetryPolicy consumer = RetryPolicy.consumerDefaults();

            assertThat(consumer).isEqualTo(new RetryPolicy(3, null, s(1), Duration.ofMinutes(5), 2));
            assertThat(consumer.maxDelays()).isNull();
            assertThat(consumer).isNotEqualTo(RetryPolicy.clientDefaults());
        }

        @Test
        void withDefaultsFillsEachUnsetFieldSeparately() {
            RetryPolicy sparse = new RetryPolicy(10, 4, null, s(30), null);

            assertThat(sparse.withDefaults()).isEqualTo(new RetryPolicy(10, 4, s(1), s(30), 2));
            assertThat(RetryPolicy.withDefaults(sparse)).isEqualTo(sparse.withDefaults());
            assertThat(new RetryPolicy(null, null, s(3), null, null).withDefaults())
                    .isEqualTo(new RetryPolicy(6, null, s(3), Duration.ofMinutes(5), 2));
        }

        @Test
        void withDefaultsKeepsExplicitInvalidValues() {
            RetryPolicy negative = new RetryPolicy(-1, -2, s(-1), s(-3), -1);

            assertThat(negative.withDefaults()).isEqualTo(negative);
        }

        @Test
        void withDefaultsOfNullIsTheClientDefault() {
            assertThat(RetryPolicy.withDefaults(null)).isEqualTo(RetryPolicy.clientDefaults());
            assertThat(new RetryPolicy(null, null, null, null, null).withDefaults())
                    .isEqualTo(RetryPolicy.clientDefaults());
        }

        @Test
        void withDefaultsDoesNotChangeItsReceiver() {
            RetryPolicy sparse = new RetryPolicy(10, null, null, null, null);
            RetryPolicy before = sparse.toBuilder().build();

            sparse.withDefaults();

            assertThat(sparse).isEqualTo(before);
        }

        @Test
        void staticFillHandlesNullOnEitherSide() {
            RetryPolicy policy = new RetryPolicy(5, null, null, null, null);
            RetryPolicy defaults = new RetryPolicy(3, 1, s(2), null, null);

            assertThat(RetryPolicy.fill(null, null)).isNull();
            assertThat(RetryPolicy.fill(policy, null)).isEqualTo(policy);
            assertThat(RetryPolicy.fill(null, defaults)).isEqualTo(defaults);
            assertThat(RetryPolicy.fill(policy, defaults)).isEqualTo(new RetryPolicy(5, 1, s(2), null, null));
        }
    }

    @Nested
    class Validation {

        @Test
        void resolvedDefaultsAreValid() {
            assertThatCode(() -> RetryPolicy.clientDefaults().validate()).doesNotThrowAnyException();
            assertThatCode(() -> RetryPolicy.consumerDefaults().validate()).doesNotThrowAnyException();
            assertThatCode(() -> RetryPolicy.withDefaults(null).validate()).doesNotThrowAnyException();
            assertThatCode(() -> new RetryPolicy(1, 7, s(1), s(1), 1).validate()).doesNotThrowAnyException();
        }

        @Test
        void everyBrokenRuleIsListedAtOnce() {
            RetryPolicy broken = new RetryPolicy(-1, -1, s(-1), null, -1).withDefaults();

            assertViolations(broken::validate,
                    "retry.maxRetries", "retry.maxDelays", "retry.baseDelay", "retry.exponent");
        }

        @Test
        void anUnresolvedPolicyMissesEveryRequiredField() {
            RetryPolicy zeros = new RetryPolicy(0, 0, Duration.ZERO, Duration.ZERO, 0);

            assertViolations(zeros::validate,
                    "retry.maxRetries", "retry.baseDelay", "retry.maxDelay", "retry.exponent");
        }

        @Test
        void exponentZeroOnAnUnresolvedPolicyIsRejected() {
            RetryPolicy policy = new RetryPolicy(3, null, s(1), s(5), 0);

            assertViolations(policy::validate, "retry.exponent");
        }

        @Test
        void negativeExponentSurvivesDefaultsAndIsRejected() {
            assertViolations(new RetryPolicy(3, null, s(1), s(5), -1).withDefaults()::validate, "retry.exponent");
        }

        @Test
        void negativeMaxRetriesIsRejected() {
            InvalidConfigurationException thrown =
                    assertViolations(new RetryPolicy(-1, null, null, null, null).withDefaults()::validate,
                            "retry.maxRetries");

            assertThat(thrown.violations().get(0).value()).isEqualTo(-1);
        }

        @Test
        void negativeMaxDelayIsRejected() {
            assertViolations(new RetryPolicy(null, null, null, s(-5), null).withDefaults()::validate,
                    "retry.maxDelay");
        }

        @Test
        void maxDelayShorterThanBaseDelayIsRejectedAlongsideOtherRules() {
            RetryPolicy policy = new RetryPolicy(-2, null, s(10), s(5), null).withDefaults();

            InvalidConfigurationException thrown =
                    assertViolations(policy::validate, "retry.maxRetries", "retry.maxDelay");

            assertThat(thrown.violations()).filteredOn(v -> v.property().equals("retry.maxDelay"))
                    .singleElement().satisfies(v -> assertThat(v.value()).isEqualTo(s(5)));
        }

        @Test
        void maxDelayEqualToBaseDelayIsAccepted() {
            assertThatCode(() -> new RetryPolicy(3, null, s(5), s(5), 2).validate()).doesNotThrowAnyException();
        }

        @Test
        void totalSleepBeyondTheLongestDurationIsRejected() {
            // 19,999 sleeps, most of them 7 days: far beyond 2^63 ns (about 106,752 days)
            RetryPolicy policy =
                    new RetryPolicy(20_000, null, Duration.ofDays(1), Duration.ofDays(7), null).withDefaults();

            assertViolations(policy::validate, "retry");
        }

        @Test
        void totalSleepExactlyAtTheLongestDurationIsAccepted() {
            Duration longest = RetryPolicy.LONGEST_TOTAL_DELAY;
            assertThat(longest).isEqualTo(Duration.ofNanos(Long.MAX_VALUE));
            // 2^63 - 1 = (7 × 7 × 73 × 127) × (337 × 92,737 × 649,657): that many sleeps of a flat 5.6 h each
            Duration sleep = Duration.ofNanos(337L * 92_737L * 649_657L);
            int sleeps = 7 * 7 * 73 * 127;

            RetryPolicy exactly = new RetryPolicy(sleeps + 1, null, sleep, sleep, 1);
            RetryPolicy oneMore = new RetryPolicy(sleeps + 2, null, sleep, sleep, 1);

            assertThatCode(exactly::validate).doesNotThrowAnyException();
            assertThat(exactly.calculateTotalDelay()).isEqualTo(longest);
            assertViolations(oneMore::validate, "retry");
        }

        @Test
        void sleepsJustOverTheLongestDurationAreRejected() {
            // 15,251 sleeps of 7 days are 106,757 days > 106,751.99 days; 15,250 are 106,750 days
            RetryPolicy policy = new RetryPolicy(15_252, null, Duration.ofDays(7), Duration.ofDays(7), 1);
            RetryPolicy fits = new RetryPolicy(15_251, null, Duration.ofDays(7), Duration.ofDays(7), 1);

            assertViolations(policy::validate, "retry");
            assertThatCode(fits::validate).doesNotThrowAnyException();
        }

        @Test
        void validateReportsSql0108() {
            InvalidConfigurationException thrown = invalid(new RetryPolicy(-1, null, s(1), s(5), 2)::validate);

            assertThat(thrown.code()).isEqualTo(Code.SQL0108);
            assertThat(thrown.getMessage()).contains("retry.maxRetries");
        }
    }

    @Nested
    class Equality {

        @Test
        void zeroNormalisesToUnset() {
            RetryPolicy zeros = new RetryPolicy(0, 0, Duration.ZERO, Duration.ZERO, 0);
            RetryPolicy nulls = new RetryPolicy(null, null, null, null, null);

            assertThat(zeros).isEqualTo(nulls).hasSameHashCodeAs(nulls);
            assertThat(zeros.maxRetries()).isNull();
            assertThat(zeros.maxDelays()).isNull();
            assertThat(zeros.baseDelay()).isNull();
            assertThat(zeros.maxDelay()).isNull();
            assertThat(zeros.exponent()).isNull();
            assertThat(RetryPolicy.builder().maxRetries(0).baseDelay(Duration.ZERO).build()).isEqualTo(nulls);
        }

        @Test
        void equalityComparesMaxDelaysToo() {
            RetryPolicy base = RetryPolicy.consumerDefaults();

            assertThat(base.toBuilder().maxDelays(5).build()).isNotEqualTo(base);
            assertThat(base.toBuilder().maxDelays(5).build()).isEqualTo(base.toBuilder().maxDelays(5).build());
        }

        @Test
        void everyStoredFieldTakesPart() {
            RetryPolicy base = new RetryPolicy(3, 2, s(1), s(60), 2);

            assertThat(base.toBuilder().build()).isEqualTo(base);
            assertThat(base.toBuilder().maxRetries(4).build()).isNotEqualTo(base);
            assertThat(base.toBuilder().maxDelays(3).build()).isNotEqualTo(base);
            assertThat(base.toBuilder().baseDelay(s(2)).build()).isNotEqualTo(base);
            assertThat(base.toBuilder().maxDelay(s(61)).build()).isNotEqualTo(base);
            assertThat(base.toBuilder().exponent(3).build()).isNotEqualTo(base);
        }

        @Test
        void durationsCompareByLength() {
            assertThat(new RetryPolicy(3, null, Duration.ofMillis(1000), Duration.ofMinutes(1), 2))
                    .isEqualTo(new RetryPolicy(3, null, s(1), s(60), 2));
        }

        @Test
        void unsetIsNotTheExplicitDefault() {
            RetryPolicy unset = new RetryPolicy(null, null, null, null, null);

            assertThat(Objects.equals(null, RetryPolicy.clientDefaults())).isFalse();
            assertThat(unset).isNotEqualTo(RetryPolicy.clientDefaults());
            assertThat(unset).isNotEqualTo(RetryPolicy.consumerDefaults());
            assertThat(MessageOptions.equal(
                    new MessageOptions(null, null, null, null),
                    new MessageOptions(null, null, RetryPolicy.consumerDefaults(), null))).isFalse();
        }
    }
}
