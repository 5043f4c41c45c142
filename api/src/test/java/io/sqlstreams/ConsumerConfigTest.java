package io.sqlstreams;

import static io.sqlstreams.ConfigAssertions.assertViolations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** ConsumerConfig: the group declaration's defaults, resolution (digest §3.2, §4.3, §4.6) and validation. */
class ConsumerConfigTest {

    private static final RetryPolicy GROUP_DEFAULT_RETRY =
            new RetryPolicy(3, null, Duration.ofSeconds(1), Duration.ofMinutes(5), 2);

    private static Duration s(long seconds) {
        return Duration.ofSeconds(seconds);
    }

    private static MessageOptions timeout(Duration timeout) {
        return new MessageOptions(null, timeout, null, null);
    }

    @Nested
    class Defaults {

        @Test
        void resolvedMessageIsThirtySecondsAndThreeAttemptsOnTheDefaultCurve() {
            MessageOptions message = ConsumerConfig.defaults().resolvedMessage();

            assertThat(message.timeout()).isEqualTo(s(30));
            assertThat(message.retry()).isEqualTo(GROUP_DEFAULT_RETRY);
            assertThat(message.retry().maxDelays()).isNull();
            assertThat(message.concurrency()).isNull();
            assertThat(message.scheduledAt()).isNull();
        }

        @Test
        void resolvedMessageFillsAPartialDeclarationFieldByField() {
            ConsumerConfig config = ConsumerConfig.builder()
                    .message(new MessageOptions(null, s(10), new RetryPolicy(5, null, s(2), null, null), null))
                    .build();

            assertThat(config.resolvedMessage()).isEqualTo(new MessageOptions(null, s(10),
                    new RetryPolicy(5, null, s(2), Duration.ofMinutes(5), 2), null));
        }

        @Test
        void resolvedMessageMaxIsTheResolvedMessageWithConcurrencyCleared() {
            ConsumerConfig config = ConsumerConfig.builder()
                    .message(new MessageOptions(Concurrency.EXCLUSIVE, s(12),
                            new RetryPolicy(4, 2, null, null, null), null))
                    .build();

            MessageOptions resolved = config.resolvedMessage();
            MessageOptions max = config.resolvedMessageMax();

            assertThat(resolved.concurrency()).isEqualTo(Concurrency.EXCLUSIVE);
            assertThat(max.concurrency()).isNull();
            assertThat(max.timeout()).isEqualTo(resolved.timeout()).isEqualTo(s(12));
            assertThat(max.retry()).isEqualTo(resolved.retry())
                    .isEqualTo(new RetryPolicy(4, 2, s(1), Duration.ofMinutes(5), 2));
        }

        @Test
        void defaultResolvedMessageMaxEqualsTheDefaultMessage() {
            assertThat(ConsumerConfig.defaults().resolvedMessageMax())
                    .isEqualTo(new MessageOptions(null, s(30), GROUP_DEFAULT_RETRY, null));
        }

        @Test
        void explicitMessageMaxFieldsWinAndTheRestComeFromTheMessage() {
            ConsumerConfig config = ConsumerConfig.builder()
                    .messageMax(new MessageOptions(null, s(10), new RetryPolicy(8, null, null, null, null), null))
                    .build();

            assertThat(config.resolvedMessageMax()).isEqualTo(new MessageOptions(null, s(10),
                    new RetryPolicy(8, null, s(1), Duration.ofMinutes(5), 2), null));
        }

        @Test
        void scalarDefaults() {
            ConsumerConfig config = ConsumerConfig.defaults();

            assertThat(config.resolvedStart()).isEqualTo(Start.BEGINNING);
            assertThat(config.resolvedExceptionInitialBackoff()).isEqualTo(s(5));
            assertThat(config.resolvedMaxRangeReclaims()).isEqualTo(3);
            assertThat(config.bindings()).isNull();
            assertThat(config.concurrencyOverride()).isNull();
            assertThat(config.messageMin()).isNull();
        }

        @Test
        void explicitScalarsWinAndZeroMeansDefault() {
            ConsumerConfig config = new ConsumerConfig(null, null, null, null, Start.HEAD, null, s(9), 7);
            ConsumerConfig zeros = new ConsumerConfig(null, null, null, null, null, null, Duration.ZERO, 0);

            assertThat(config.resolvedStart()).isEqualTo(Start.HEAD);
            assertThat(config.resolvedExceptionInitialBackoff()).isEqualTo(s(9));
            assertThat(config.resolvedMaxRangeReclaims()).isEqualTo(7);
            assertThat(zeros).isEqualTo(ConsumerConfig.defaults());
            assertThat(zeros.resolvedExceptionInitialBackoff()).isEqualTo(s(5));
            assertThat(zeros.resolvedMaxRangeReclaims()).isEqualTo(3);
        }
    }

    @Nested
    class Resolve {

        @Test
        void nullIsTheGroupDefaultRunningParallel() {
            assertThat(ConsumerConfig.defaults().resolve(null))
                    .isEqualTo(new MessageOptions(Concurrency.PARALLEL, s(30), GROUP_DEFAULT_RETRY, null));
        }

        @Test
        void billingGroupCapsARequestedTimeoutAtItsCeiling() {
            ConsumerConfig billing = ConsumerConfig.builder()
                    .message(timeout(s(30)))
                    .messageMax(timeout(s(10)))
                    .build();

            assertThat(billing.resolve(timeout(s(20))).timeout()).isEqualTo(s(10));
            assertThat(billing.resolve(timeout(s(5))).timeout()).isEqualTo(s(5));
            // the group's own 30 s default is clamped by its own ceiling too: fill, then clamp
            assertThat(billing.resolve(null).timeout()).isEqualTo(s(10));
        }

        @Test
        void parallelOverrideReplacesAnExclusiveRequest() {
            ConsumerConfig group = ConsumerConfig.builder().concurrencyOverride(Concurrency.PARALLEL).build();
            MessageOptions request = new MessageOptions(Concurrency.EXCLUSIVE, s(5), null, null);

            MessageOptions resolved = group.resolve(request);

            assertThat(resolved.concurrency()).isEqualTo(Concurrency.PARALLEL);
            assertThat(resolved.timeout()).isEqualTo(s(5));
        }

        @Test
        void withoutOverrideTheMessagesPolicyIsKept() {
            MessageOptions request = new MessageOptions(Concurrency.ORDERED, null, null, null);

            assertThat(ConsumerConfig.defaults().resolve(request).concurrency()).isEqualTo(Concurrency.ORDERED);
        }

        @Test
        void defaultCeilingClampsTimeoutAndMaxRetriesButNotMaxDelays() {
            ConsumerConfig group = ConsumerConfig.defaults();

            assertThat(group.resolve(timeout(s(60))).timeout()).isEqualTo(s(30));

            MessageOptions tenRetries = new MessageOptions(null, null, new RetryPolicy(10, null, null, null, null), null);
            assertThat(group.resolve(tenRetries).retry().maxRetries()).isEqualTo(3);

            MessageOptions fiveDelays = new MessageOptions(null, null, new RetryPolicy(null, 5, null, null, null), null);
            assertThat(group.resolve(fiveDelays).retry())
                    .isEqualTo(new RetryPolicy(3, 5, s(1), Duration.ofMinutes(5), 2));
        }

        @Test
        void raisedCeilingLetsAMessageAskForMore() {
            ConsumerConfig group = ConsumerConfig.builder()
                    .messageMax(new MessageOptions(null, s(120), new RetryPolicy(10, null, null, null, null), null))
                    .build();
            MessageOptions request = new MessageOptions(null, s(60), new RetryPolicy(10, null, null, null, null), null);

            MessageOptions resolved = group.resolve(request);

            assertThat(resolved.timeout()).isEqualTo(s(60));
            assertThat(resolved.retry().maxRetries()).isEqualTo(10);
        }

        @Test
        void floorsRaiseSmallRequests() {
            ConsumerConfig group = ConsumerConfig.builder()
                    .messageMin(new MessageOptions(null, s(5),
                            new RetryPolicy(2, null, Duration.ofMillis(500), null, null), null))
                    .build();
            MessageOptions request = new MessageOptions(null, s(1), new RetryPolicy(1, null, Duration.ofMillis(10),
                    null, null), null);

            MessageOptions resolved = group.resolve(request);

            assertThat(resolved.timeout()).isEqualTo(s(5));
            assertThat(resolved.retry())
                    .isEqualTo(new RetryPolicy(2, null, Duration.ofMillis(500), Duration.ofMinutes(5), 2));
        }

        @Test
        void ceilingIsAppliedAfterTheFloor() {
            // the default ceiling is the group's own 30 s / 1 s base; a floor above it loses
            ConsumerConfig group = ConsumerConfig.builder()
                    .messageMin(new MessageOptions(null, s(45), new RetryPolicy(null, null, s(2), null, null), null))
                    .build();

            MessageOptions resolved = group.resolve(null);

            assertThat(resolved.timeout()).isEqualTo(s(30));
            assertThat(resolved.retry().baseDelay()).isEqualTo(s(1));
        }

        @Test
        void resolvedOptionsAlwaysCarryConcurrencyTimeoutAndRetry() {
            MessageOptions resolved = ConsumerConfig.defaults().resolve(MessageOptions.empty());

            assertThat(resolved.concurrency()).isNotNull();
            assertThat(resolved.timeout()).isNotNull();
            assertThat(resolved.retry()).isNotNull();
        }

        @Test
        void scheduledAtOfTheStoredMessageSurvives() {
            Instant at = Instant.parse("2025-05-05T05:05:05Z");

            assertThat(ConsumerConfig.defaults().resolve(new MessageOptions(null, null, null, at)).scheduledAt())
                    .isEqualTo(at);
        }
    }

    @Nested
    class Validation {

        @Test
        void defaultsAreValid() {
            assertThatCode(() -> ConsumerConfig.defaults().validate()).doesNotThrowAnyException();
            assertThatCode(() -> ConsumerConfig.builder()
                    .message(new MessageOptions(null, s(10), new RetryPolicy(3, null, s(2), null, null), null))
                    .bindings(List.of("orders.*", "payments.#"))
                    .maxRangeReclaims(1)
                    .build().validate()).doesNotThrowAnyException();
        }

        @Test
        void everyBrokenRuleIsListedAtOnce() {
            ConsumerConfig config = ConsumerConfig.builder()
                    .message(timeout(s(-1)))
                    .exceptionInitialBackoff(s(-5))
                    .maxRangeReclaims(-1)
                    .bindings(Arrays.asList("orders.*", "", "   "))
                    .build();

            InvalidConfigurationException thrown = assertViolations(config::validate,
                    "message.timeout", "exceptionInitialBackoff", "maxRangeReclaims", "bindings[1]", "bindings[2]");

            assertThat(thrown.violations()).filteredOn(v -> v.property().equals("maxRangeReclaims"))
                    .singleElement().satisfies(v -> assertThat(v.value()).isEqualTo(-1));
        }

        @Test
        void negativeMaxRangeReclaimsAloneIsRejected() {
            assertViolations(ConsumerConfig.builder().maxRangeReclaims(-1).build()::validate, "maxRangeReclaims");
        }

        @Test
        void brokenMessageRetryIsReportedUnderMessageRetry() {
            ConsumerConfig config = ConsumerConfig.builder()
                    .message(new MessageOptions(null, null, new RetryPolicy(-1, null, null, null, -1), null))
                    .build();

            assertViolations(config::validate, "message.retry.maxRetries", "message.retry.exponent");
        }

        @Test
        void aFloorAboveItsCeilingIsRejectedFieldByField() {
            ConsumerConfig config = ConsumerConfig.builder()
                    .messageMin(new MessageOptions(null, s(60), new RetryPolicy(5, 4, s(10), s(20), 3), null))
                    .messageMax(new MessageOptions(null, s(10), new RetryPolicy(2, 1, s(5), s(10), 2), null))
                    .build();

            InvalidConfigurationException thrown = assertViolations(config::validate, "messageMin.timeout",
                    "messageMin.retry.maxRetries", "messageMin.retry.maxDelays", "messageMin.retry.baseDelay",
                    "messageMin.retry.maxDelay", "messageMin.retry.exponent");
            assertThat(thrown.violations()).filteredOn(v -> v.property().equals("messageMin.timeout")).singleElement()
                    .satisfies(v -> assertThat(v.rule()).contains("messageMax.timeout").contains("PT10S"));
        }

        @Test
        void aFloorAtItsCeilingOrBelowItIsAccepted() {
            RetryPolicy retry = new RetryPolicy(2, 1, s(5), s(10), 2);
            assertThatCode(ConsumerConfig.builder()
                    .messageMin(new MessageOptions(null, s(10), retry, null))
                    .messageMax(new MessageOptions(null, s(10), retry, null))
                    .build()::validate).doesNotThrowAnyException();
            assertThatCode(ConsumerConfig.builder()
                    .messageMin(new MessageOptions(null, s(1), new RetryPolicy(1, null, Duration.ofMillis(1), null, 1),
                            null))
                    .build()::validate).doesNotThrowAnyException();
        }

        @Test
        void brokenBoundsAreReportedUnderTheirOwnPaths() {
            ConsumerConfig config = ConsumerConfig.builder()
                    .messageMin(timeout(s(-1)))
                    .messageMax(new MessageOptions(null, null, new RetryPolicy(-4, null, null, null, null), null))
                    .build();

            assertViolations(config::validate, "messageMin.timeout", "messageMax.retry.maxRetries");
        }
    }

    @Nested
    class Bindings {

        @Test
        void bindingsListIsCopied() {
            List<String> patterns = new ArrayList<>(List.of("orders.created"));
            ConsumerConfig config = ConsumerConfig.builder().bindings(patterns).build();

            patterns.add("");
            patterns.set(0, "changed");

            assertThat(config.bindings()).containsExactly("orders.created");
            assertThatCode(config::validate).doesNotThrowAnyException();
        }

        @Test
        void bindingsListCannotBeChangedThroughTheRecord() {
            ConsumerConfig config = ConsumerConfig.builder().bindings(List.of("a.b")).build();

            assertThatThrownBy(() -> config.bindings().add("c.d")).isInstanceOf(UnsupportedOperationException.class);
        }

        @Test
        void aNullPatternIsReportedByValidateNotThrownByTheConstructor() {
            ConsumerConfig config = ConsumerConfig.builder().bindings(Arrays.asList("orders.*", null)).build();

            assertThat(config.bindings()).containsExactly("orders.*", null);
            assertViolations(config::validate, "bindings[1]");
        }

        @Test
        void aPatternWithAControlCharacterOrALoneSurrogateIsRejected() {
            ConsumerConfig config = ConsumerConfig.builder()
                    .bindings(List.of("nul\u0000byte", "orders.*", "line\nbreak", "lone\uD800half", "emoji.😀"))
                    .build();

            assertViolations(config::validate, "bindings[0]", "bindings[2]", "bindings[3]");
        }

        @Test
        void emptyBindingsAreKeptDistinctFromNone() {
            assertThat(ConsumerConfig.builder().bindings(List.of()).build().bindings()).isEmpty();
            assertThat(ConsumerConfig.builder().build().bindings()).isNull();
        }
    }
}
