package io.sqlstreams;

import static io.sqlstreams.ConfigAssertions.assertViolations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.time.Duration;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** ConsumeOptions: one session's defaults (seed 002, digest §3.3), lease budget and validation. */
class ConsumeOptionsTest {

    private static Duration ms(long millis) {
        return Duration.ofMillis(millis);
    }

    private static ConsumerConfig groupWithMaxTimeout(Duration timeout) {
        return ConsumerConfig.builder().messageMax(new MessageOptions(null, timeout, null, null)).build();
    }

    @Nested
    class Defaults {

        @Test
        void everyDefault() {
            ConsumeOptions options = ConsumeOptions.defaults();

            assertThat(options.resolvedBatchLimit()).isEqualTo(4);
            assertThat(options.resolvedQueueSize()).isEqualTo(4);
            assertThat(options.resolvedMessageConcurrency()).isEqualTo(1);
            assertThat(options.resolvedClaimPollRate()).isEqualTo(ms(500));
            assertThat(options.resolvedQueueMargin()).isEqualTo(Duration.ofSeconds(15));
            assertThat(options.resolvedRecordMargin()).isEqualTo(Duration.ofSeconds(2));
            assertThat(options.resolvedTimeoutGrace()).isEqualTo(ms(100));
            assertThat(options.resolvedSlowDispatchThreshold()).isEqualTo(Duration.ZERO);
            assertThat(options.resolvedInstanceTtl()).isEqualTo(Duration.ofSeconds(30));
            assertThat(options.resolvedBindingRetryInterval()).isEqualTo(Duration.ofSeconds(10));
            assertThat(options.resolvedConfigRefreshInterval()).isEqualTo(Duration.ofSeconds(30));
            assertThat(options.shutdownTimeout()).isNull();
            assertThat(options.disableGracefulShutdown()).isFalse();
        }

        @Test
        void queueSizeFollowsAnExplicitBatchLimit() {
            ConsumeOptions options = ConsumeOptions.builder().batchLimit(20).build();

            assertThat(options.resolvedQueueSize()).isEqualTo(20);
        }

        @Test
        void anUnsetQueueHoldsABatchForEveryHandlerSlot() {
            assertThat(ConsumeOptions.builder().messageConcurrency(4).build().resolvedQueueSize()).isEqualTo(16);
            assertThat(ConsumeOptions.builder().batchLimit(20).messageConcurrency(3).build().resolvedQueueSize())
                    .isEqualTo(60);
            assertThat(ConsumeOptions.builder().batchLimit(1 << 20).messageConcurrency(1 << 12).build()
                    .resolvedQueueSize()).as("saturated, not overflowed").isEqualTo(Integer.MAX_VALUE);
        }

        @Test
        void anExplicitQueueSizeIsKeptAsGiven() {
            ConsumeOptions options = ConsumeOptions.builder().batchLimit(8).queueSize(8).messageConcurrency(4).build();

            assertThat(options.resolvedQueueSize()).isEqualTo(8);
            assertThatCode(options::validate).doesNotThrowAnyException();
        }

        @Test
        void zeroMeansDefault() {
            ConsumeOptions zeros = new ConsumeOptions(0, 0, 0, Duration.ZERO, Duration.ZERO, Duration.ZERO,
                    Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, false);

            assertThat(zeros).isEqualTo(ConsumeOptions.defaults());
            assertThat(zeros.resolvedBatchLimit()).isEqualTo(4);
            assertThat(zeros.resolvedClaimPollRate()).isEqualTo(ms(500));
        }

        @Test
        void explicitValuesWin() {
            ConsumeOptions options = new ConsumeOptions(8, 16, 3, ms(50), ms(60), ms(70), ms(80), ms(90), ms(110),
                    ms(120), ms(130), ms(140), true);

            assertThat(options.resolvedBatchLimit()).isEqualTo(8);
            assertThat(options.resolvedQueueSize()).isEqualTo(16);
            assertThat(options.resolvedMessageConcurrency()).isEqualTo(3);
            assertThat(options.resolvedClaimPollRate()).isEqualTo(ms(50));
            assertThat(options.resolvedQueueMargin()).isEqualTo(ms(60));
            assertThat(options.resolvedRecordMargin()).isEqualTo(ms(70));
            assertThat(options.resolvedTimeoutGrace()).isEqualTo(ms(80));
            assertThat(options.resolvedSlowDispatchThreshold()).isEqualTo(ms(90));
            assertThat(options.resolvedInstanceTtl()).isEqualTo(ms(110));
            assertThat(options.resolvedBindingRetryInterval()).isEqualTo(ms(120));
            assertThat(options.resolvedConfigRefreshInterval()).isEqualTo(ms(130));
            assertThat(options.resolvedShutdownTimeout(ConsumerConfig.defaults())).isEqualTo(ms(140));
            assertThat(options.disableGracefulShutdown()).isTrue();
            assertThat(options.toBuilder().build()).isEqualTo(options);
        }
    }

    @Nested
    class Budgets {

        @Test
        void defaultShutdownTimeoutIs32Point1Seconds() {
            assertThat(ConsumeOptions.defaults().resolvedShutdownTimeout(ConsumerConfig.defaults()))
                    .isEqualTo(ms(32_100));
        }

        @Test
        void defaultRangeLeaseIs47Point1Seconds() {
            assertThat(ConsumeOptions.defaults().rangeLeaseDuration(ConsumerConfig.defaults()))
                    .isEqualTo(ms(47_100));
        }

        @Test
        void bothFollowTheGroupsCeilingTimeout() {
            ConsumeOptions options = ConsumeOptions.defaults();

            assertThat(options.resolvedShutdownTimeout(groupWithMaxTimeout(Duration.ofSeconds(10))))
                    .isEqualTo(ms(12_100));
            assertThat(options.rangeLeaseDuration(groupWithMaxTimeout(Duration.ofSeconds(10))))
                    .isEqualTo(ms(27_100));
            assertThat(options.resolvedShutdownTimeout(groupWithMaxTimeout(Duration.ofSeconds(120))))
                    .isEqualTo(ms(122_100));
            assertThat(options.rangeLeaseDuration(groupWithMaxTimeout(Duration.ofSeconds(120))))
                    .isEqualTo(ms(137_100));
        }

        @Test
        void groupDefaultTimeoutMovesTheCeilingWhenNoMaxIsDeclared() {
            ConsumerConfig group = ConsumerConfig.builder()
                    .message(new MessageOptions(null, Duration.ofSeconds(60), null, null)).build();

            assertThat(ConsumeOptions.defaults().resolvedShutdownTimeout(group)).isEqualTo(ms(62_100));
            assertThat(ConsumeOptions.defaults().rangeLeaseDuration(group)).isEqualTo(ms(77_100));
        }

        @Test
        void sessionMarginsFeedTheBudgets() {
            ConsumeOptions options = ConsumeOptions.builder()
                    .timeoutGrace(ms(500)).recordMargin(ms(1000)).queueMargin(ms(4000)).build();

            assertThat(options.resolvedShutdownTimeout(ConsumerConfig.defaults())).isEqualTo(ms(31_500));
            assertThat(options.rangeLeaseDuration(ConsumerConfig.defaults())).isEqualTo(ms(35_500));
        }

        @Test
        void raisingTheCeilingDoesNotIncreaseQueueAllowance() {
            ConsumeOptions options = ConsumeOptions.defaults();
            for (long seconds : new long[] {1, 10, 30, 600}) {
                ConsumerConfig group = groupWithMaxTimeout(Duration.ofSeconds(seconds));
                assertThat(options.rangeLeaseDuration(group).minus(options.resolvedShutdownTimeout(group)))
                        .as("ceiling %ss", seconds).isEqualTo(Duration.ofSeconds(15));
            }
        }

        @Test
        void explicitShutdownTimeoutWins() {
            ConsumeOptions options = ConsumeOptions.builder().shutdownTimeout(Duration.ofSeconds(3)).build();

            assertThat(options.resolvedShutdownTimeout(ConsumerConfig.defaults())).isEqualTo(Duration.ofSeconds(3));
            assertThat(options.resolvedShutdownTimeout(groupWithMaxTimeout(Duration.ofSeconds(90))))
                    .isEqualTo(Duration.ofSeconds(3));
            assertThat(options.rangeLeaseDuration(ConsumerConfig.defaults())).isEqualTo(ms(47_100));
        }
    }

    @Nested
    class Validation {

        @Test
        void defaultsAreValid() {
            assertThatCode(() -> ConsumeOptions.defaults().validate()).doesNotThrowAnyException();
        }

        @Test
        void queueBelowTheDefaultBatchIsRejected() {
            ConsumeOptions options = ConsumeOptions.builder().queueSize(2).build();

            assertViolations(options::validate, "queueSize");
        }

        @ParameterizedTest(name = "queue {0} with batch {1}")
        @CsvSource({"1, 1", "8, 4", "4, ", "5, ", "20, 20", "6, 2"})
        void compatibleQueueAndBatchAreAccepted(Integer queue, Integer batch) {
            ConsumeOptions options = ConsumeOptions.builder().queueSize(queue).batchLimit(batch).build();

            assertThatCode(options::validate).doesNotThrowAnyException();
        }

        @ParameterizedTest(name = "queue {0} with batch {1}")
        @CsvSource({"3, 5", "2, ", "3, ", "1, 2", "19, 20"})
        void queueSmallerThanTheBatchIsRejected(Integer queue, Integer batch) {
            ConsumeOptions options = ConsumeOptions.builder().queueSize(queue).batchLimit(batch).build();

            assertViolations(options::validate, "queueSize");
        }

        @Test
        void everyNegativeValueIsListedInOneException() {
            Duration negative = ms(-1);
            ConsumeOptions options = new ConsumeOptions(-1, -1, -1, negative, negative, negative, negative, negative,
                    negative, negative, negative, negative, false);

            assertViolations(options::validate, "batchLimit", "queueSize", "messageConcurrency", "claimPollRate",
                    "queueMargin", "recordMargin", "timeoutGrace", "slowDispatchThreshold", "instanceTtl",
                    "bindingRetryInterval", "configRefreshInterval", "shutdownTimeout");
        }

        @Test
        void eachNegativeCountIsRejectedOnItsOwn() {
            assertViolations(ConsumeOptions.builder().batchLimit(-4).build()::validate, "batchLimit");
            assertViolations(ConsumeOptions.builder().queueSize(-4).build()::validate, "queueSize");
            assertViolations(ConsumeOptions.builder().messageConcurrency(-1).build()::validate, "messageConcurrency");
        }

        @Test
        void eachNegativeDurationIsRejectedOnItsOwn() {
            Duration negative = Duration.ofSeconds(-1);
            assertViolations(ConsumeOptions.builder().claimPollRate(negative).build()::validate, "claimPollRate");
            assertViolations(ConsumeOptions.builder().queueMargin(negative).build()::validate, "queueMargin");
            assertViolations(ConsumeOptions.builder().recordMargin(negative).build()::validate, "recordMargin");
            assertViolations(ConsumeOptions.builder().timeoutGrace(negative).build()::validate, "timeoutGrace");
            assertViolations(ConsumeOptions.builder().slowDispatchThreshold(negative).build()::validate,
                    "slowDispatchThreshold");
            assertViolations(ConsumeOptions.builder().instanceTtl(negative).build()::validate, "instanceTtl");
            assertViolations(ConsumeOptions.builder().bindingRetryInterval(negative).build()::validate,
                    "bindingRetryInterval");
            assertViolations(ConsumeOptions.builder().configRefreshInterval(negative).build()::validate,
                    "configRefreshInterval");
            assertViolations(ConsumeOptions.builder().shutdownTimeout(negative).build()::validate, "shutdownTimeout");
        }

        @Test
        void queueRuleIsListedTogetherWithOtherRules() {
            ConsumeOptions options = ConsumeOptions.builder()
                    .queueSize(3).batchLimit(5).claimPollRate(ms(-10)).instanceTtl(ms(-1)).build();

            assertViolations(options::validate, "queueSize", "claimPollRate", "instanceTtl");
        }
    }
}
