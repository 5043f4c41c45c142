package io.sqlstreams;

import static io.sqlstreams.ConfigAssertions.assertViolations;
import static io.sqlstreams.ConfigAssertions.invalid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** StreamConfig (§2.2), ProducerConfig / BatcherConfig / ProduceOptions (§2.5), ClientConfig and wire names. */
class StreamAndProducerConfigTest {

    private static final MessageOptions EXCLUSIVE = new MessageOptions(Concurrency.EXCLUSIVE, null, null, null);
    private static final MessageOptions ORDERED = new MessageOptions(Concurrency.ORDERED, null, null, null);

    @Nested
    class Stream {

        @Test
        void defaults() {
            StreamConfig config = StreamConfig.defaults();

            assertThat(config.resolvedPartitionSize()).isEqualTo(1_000_000L);
            assertThat(config.resolvedRetentionTtl()).isEqualTo(Duration.ZERO);
            assertThat(config.allowDropPastCommitted()).isFalse();
            assertThat(config.resolvedIdempotencyKeyTtl()).isEqualTo(Duration.ofHours(24));
            assertThat(config.resolvedEmptyCompactionHeadTtl()).isEqualTo(Duration.ofHours(1));
            assertThat(config.resolvedDeliveryLogMode()).isEqualTo(DeliveryLogMode.FAILURES);
            assertThat(config.resolvedFenceWarnAfter()).isEqualTo(Duration.ofSeconds(10));
        }

        @Test
        void janitorDefaults() {
            JanitorConfig janitor = StreamConfig.defaults().resolvedJanitor();

            assertThat(janitor.resolvedPollRate()).isEqualTo(Duration.ofSeconds(5));
            assertThat(janitor.resolvedSweepBatchSize()).isEqualTo(1000);
            assertThat(janitor.resolvedCleanupTimeout()).isEqualTo(Duration.ofSeconds(5));
            assertThat(janitor.resolvedPartialSweepGracePeriod()).isEqualTo(Duration.ZERO);
        }

        @Test
        void vacuumDefaults() {
            VacuumConfig vacuum = StreamConfig.defaults().resolvedVacuum();

            assertThat(vacuum.resolvedPollRate()).isEqualTo(Duration.ofMinutes(2));
            assertThat(vacuum.resolvedVacuumTimeout()).isEqualTo(Duration.ofMinutes(1));
        }

        @Test
        void zeroIdempotencyTtlMeansTheDefaultNotForever() {
            StreamConfig config = StreamConfig.builder().idempotencyKeyTtl(Duration.ZERO).build();

            assertThat(config.idempotencyKeyTtl()).isNull();
            assertThat(config.resolvedIdempotencyKeyTtl()).isEqualTo(Duration.ofHours(24));
        }

        @Test
        void explicitValuesWin() {
            StreamConfig config = new StreamConfig(50L, Duration.ofDays(7), true, Duration.ofHours(2),
                    Duration.ofMinutes(3), DeliveryLogMode.ALL, new JanitorConfig(Duration.ofSeconds(1), 10,
                    Duration.ofSeconds(2), Duration.ofSeconds(3)), new VacuumConfig(Duration.ofSeconds(4),
                    Duration.ofSeconds(6)), Duration.ofSeconds(3));

            assertThat(config.resolvedPartitionSize()).isEqualTo(50L);
            assertThat(config.resolvedRetentionTtl()).isEqualTo(Duration.ofDays(7));
            assertThat(config.resolvedIdempotencyKeyTtl()).isEqualTo(Duration.ofHours(2));
            assertThat(config.resolvedEmptyCompactionHeadTtl()).isEqualTo(Duration.ofMinutes(3));
            assertThat(config.resolvedDeliveryLogMode()).isEqualTo(DeliveryLogMode.ALL);
            assertThat(config.resolvedJanitor().resolvedSweepBatchSize()).isEqualTo(10);
            assertThat(config.resolvedJanitor().resolvedPartialSweepGracePeriod()).isEqualTo(Duration.ofSeconds(3));
            assertThat(config.resolvedVacuum().resolvedVacuumTimeout()).isEqualTo(Duration.ofSeconds(6));
            assertThat(config.resolvedFenceWarnAfter()).isEqualTo(Duration.ofSeconds(3));
            assertThatCode(config::validate).doesNotThrowAnyException();
            assertThat(config.toBuilder().build()).isEqualTo(config);
        }

        @ParameterizedTest(name = "partitionSize {0} accepted")
        @ValueSource(longs = {2, 3, 1_000_000, Limits.LARGEST_PARTITION_SIZE})
        void partitionSizeFromTwoToTheLargestIsAccepted(long size) {
            assertThatCode(() -> StreamConfig.builder().partitionSize(size).build().validate())
                    .doesNotThrowAnyException();
        }

        @ParameterizedTest(name = "partitionSize {0} rejected")
        @ValueSource(longs = {1, -1, -5, Long.MIN_VALUE, Limits.LARGEST_PARTITION_SIZE + 1, Long.MAX_VALUE})
        void partitionSizeOutsideTwoToTheLargestIsRejected(long size) {
            InvalidConfigurationException thrown =
                    assertViolations(StreamConfig.builder().partitionSize(size).build()::validate, "partitionSize");

            assertThat(thrown.violations().get(0).value()).isEqualTo(size);
        }

        @Test
        void zeroPartitionSizeIsTheDefault() {
            StreamConfig config = StreamConfig.builder().partitionSize(0L).build();

            assertThat(config.resolvedPartitionSize()).isEqualTo(1_000_000L);
            assertThatCode(config::validate).doesNotThrowAnyException();
        }

        @Test
        void everyNegativeTtlIsRejectedAtOnce() {
            Duration negative = Duration.ofSeconds(-1);
            StreamConfig config = StreamConfig.builder()
                    .partitionSize(1L)
                    .retentionTtl(negative)
                    .idempotencyKeyTtl(negative)
                    .emptyCompactionHeadTtl(negative)
                    .fenceWarnAfter(negative)
                    .janitor(new JanitorConfig(negative, -1, negative, negative))
                    .vacuum(new VacuumConfig(negative, negative))
                    .build();

            assertViolations(config::validate, "partitionSize", "retentionTtl", "idempotencyKeyTtl",
                    "emptyCompactionHeadTtl", "fenceWarnAfter", "janitor.pollRate", "janitor.sweepBatchSize",
                    "janitor.cleanupTimeout",
                    "janitor.partialSweepGracePeriod", "vacuum.pollRate", "vacuum.vacuumTimeout");
        }

        @Test
        void eachNegativeTtlIsRejectedOnItsOwn() {
            Duration negative = Duration.ofMillis(-1);
            assertViolations(StreamConfig.builder().retentionTtl(negative).build()::validate, "retentionTtl");
            assertViolations(StreamConfig.builder().idempotencyKeyTtl(negative).build()::validate,
                    "idempotencyKeyTtl");
            assertViolations(StreamConfig.builder().emptyCompactionHeadTtl(negative).build()::validate,
                    "emptyCompactionHeadTtl");
        }

        @Test
        void defaultsAreValid() {
            assertThatCode(() -> StreamConfig.defaults().validate()).doesNotThrowAnyException();
        }

        @Test
        void zeroFenceWarningIsTheDefault() {
            StreamConfig config = StreamConfig.builder().fenceWarnAfter(Duration.ZERO).build();

            assertThat(config.fenceWarnAfter()).isNull();
            assertThat(config.resolvedFenceWarnAfter()).isEqualTo(StreamConfig.DEFAULT_FENCE_WARN_AFTER);
        }

        @ParameterizedTest
        @ValueSource(longs = {1_000, 60_000, 604_800_000})
        void aFenceWarningFromOneSecondToTheLongestTimingIsAccepted(long millis) {
            assertThatCode(StreamConfig.builder().fenceWarnAfter(Duration.ofMillis(millis)).build()::validate)
                    .doesNotThrowAnyException();
        }

        @ParameterizedTest
        @ValueSource(longs = {-1_000, 1, 999, 604_800_001})
        void aFenceWarningBelowOneSecondOrBeyondTheLongestTimingIsRejected(long millis) {
            assertViolations(StreamConfig.builder().fenceWarnAfter(Duration.ofMillis(millis)).build()::validate,
                    "fenceWarnAfter");
        }
    }

    @Nested
    class Producer {

        @Test
        void batcherDefaults() {
            BatcherConfig batch = ProducerConfig.defaults().resolvedBatch();

            assertThat(batch.resolvedMaxSize()).isEqualTo(100);
            assertThat(batch.resolvedConcurrencyLimit()).isEqualTo(4);
            assertThat(batch.resolvedAttemptTimeout()).isEqualTo(Duration.ofSeconds(10));
            assertThat(batch.resolvedShutdownGrace()).isEqualTo(Duration.ofSeconds(15));
        }

        @Test
        void producerDefaults() {
            ProducerConfig config = ProducerConfig.defaults();

            assertThat(config.message()).isNull();
            assertThat(config.resolvedSlowProduceThreshold()).isEqualTo(Duration.ZERO);
            assertThatCode(config::validate).doesNotThrowAnyException();
        }

        @Test
        void negativeShutdownGraceIsAllowedAndMeansAbandonAtOnce() {
            BatcherConfig batch = new BatcherConfig(null, null, null, Duration.ofSeconds(-1));
            ProducerConfig config = new ProducerConfig(null, batch, null);

            assertThat(batch.resolvedShutdownGrace()).isNegative();
            assertThatCode(config::validate).doesNotThrowAnyException();
        }

        @Test
        void batcherAndProducerRulesAreListedAtOnce() {
            ProducerConfig config = new ProducerConfig(new MessageOptions(null, Duration.ofSeconds(-1), null, null),
                    new BatcherConfig(-1, -2, Duration.ofSeconds(-3), null), Duration.ofSeconds(-4));

            assertViolations(config::validate, "message.timeout", "batch.maxSize", "batch.concurrencyLimit",
                    "batch.attemptTimeout", "slowProduceThreshold");
        }

        @Test
        void negativeMaxSizeIsRejected() {
            assertViolations(new ProducerConfig(null, new BatcherConfig(-1, null, null, null), null)::validate,
                    "batch.maxSize");
        }
    }

    @Nested
    class Produce {

        @Test
        void noneIsValid() {
            assertThatCode(() -> ProduceOptions.none().validate(null)).doesNotThrowAnyException();
        }

        @Test
        void exclusiveWithoutMessageKeyIsRejected() {
            ProduceOptions options = ProduceOptions.builder().message(EXCLUSIVE).build();

            assertViolations(() -> options.validate(null), "message.concurrency");
        }

        @Test
        void orderedWithoutMessageKeyIsRejected() {
            ProduceOptions options = ProduceOptions.builder().message(ORDERED).build();

            assertViolations(() -> options.validate(null), "message.concurrency");
        }

        @Test
        void keyHoldingPolicyFromTheProducerDefaultsCounts() {
            assertViolations(() -> ProduceOptions.none().validate(EXCLUSIVE), "message.concurrency");
            assertViolations(() -> ProduceOptions.none().validate(ORDERED), "message.concurrency");
            assertThatCode(() -> ProduceOptions.builder().messageKey("order-1").build().validate(ORDERED))
                    .doesNotThrowAnyException();
        }

        @Test
        void messagesOwnPolicyOverridesTheProducerDefault() {
            ProduceOptions parallel = ProduceOptions.builder()
                    .message(new MessageOptions(Concurrency.PARALLEL, null, null, null)).build();

            assertThatCode(() -> parallel.validate(EXCLUSIVE)).doesNotThrowAnyException();
        }

        @Test
        void keyHoldingPoliciesWithAKeyAreAccepted() {
            assertThatCode(() -> ProduceOptions.builder().messageKey("k").message(EXCLUSIVE).build().validate(null))
                    .doesNotThrowAnyException();
            assertThatCode(() -> ProduceOptions.builder().messageKey("k").message(ORDERED).build().validate(null))
                    .doesNotThrowAnyException();
        }

        @Test
        void orderedWithCompactionIsRejected() {
            ProduceOptions options = ProduceOptions.builder()
                    .messageKey("k").message(ORDERED).compaction(CompactionOptions.enabled()).build();

            assertViolations(() -> options.validate(null), "compaction");
        }

        @Test
        void orderedFromTheProducerWithCompactionIsRejected() {
            ProduceOptions options = ProduceOptions.builder()
                    .messageKey("k").compaction(CompactionOptions.withRank(3)).build();

            assertViolations(() -> options.validate(ORDERED), "compaction");
        }

        @Test
        void compactionWithoutMessageKeyIsRejected() {
            ProduceOptions options = ProduceOptions.builder().compaction(CompactionOptions.enabled()).build();

            assertViolations(() -> options.validate(null), "compaction");
        }

        @Test
        void disabledCompactionWithARankIsRejected() {
            ProduceOptions options = ProduceOptions.builder()
                    .messageKey("k").compaction(new CompactionOptions(false, 5)).build();

            InvalidConfigurationException thrown = assertViolations(() -> options.validate(null), "compaction.rank");
            assertThat(thrown.violations().get(0).value()).isEqualTo(5L);
            assertThat(options.compacted()).isFalse();
        }

        @Test
        void disabledCompactionWithoutARankIsAccepted() {
            assertThatCode(() -> ProduceOptions.builder().compaction(new CompactionOptions(false, 0)).build()
                    .validate(null)).doesNotThrowAnyException();
        }

        @Test
        void rankedCompactionWithAKeyIsAccepted() {
            ProduceOptions options = ProduceOptions.builder()
                    .messageKey("customer-42").compaction(CompactionOptions.withRank(5)).build();

            assertThatCode(() -> options.validate(null)).doesNotThrowAnyException();
            assertThatCode(() -> options.validate(EXCLUSIVE)).doesNotThrowAnyException();
            assertThat(options.compacted()).isTrue();
            assertThat(options.compaction()).isEqualTo(new CompactionOptions(true, 5));
            assertThat(CompactionOptions.enabled()).isEqualTo(new CompactionOptions(true, 0));
        }

        @Test
        void everyRuleIsListedAtOnce() {
            ProduceOptions options = ProduceOptions.builder()
                    .message(new MessageOptions(Concurrency.ORDERED, Duration.ofSeconds(-1), null, null))
                    .compaction(CompactionOptions.enabled())
                    .build();

            InvalidConfigurationException thrown = assertViolations(() -> options.validate(null),
                    "message.concurrency", "compaction", "compaction", "message.timeout");
            assertThat(thrown.violations()).extracting(v -> v.property() + ": " + v.rule())
                    .doesNotHaveDuplicates();
        }

        @Test
        void mergedOptionsAreValidated() {
            MessageOptions brokenDefaults = new MessageOptions(null, Duration.ofSeconds(-1),
                    new RetryPolicy(-1, null, null, null, null), null);

            assertViolations(() -> ProduceOptions.none().validate(brokenDefaults),
                    "message.timeout", "message.retry.maxRetries");
        }

        @Test
        void emptyKeysNormaliseToNull() {
            ProduceOptions options = new ProduceOptions("", "", null, "", null);

            assertThat(options.routingKey()).isNull();
            assertThat(options.messageKey()).isNull();
            assertThat(options.idempotencyKey()).isNull();
            assertThat(options).isEqualTo(ProduceOptions.none());
            assertViolations(() -> ProduceOptions.builder().messageKey("").message(EXCLUSIVE).build().validate(null),
                    "message.concurrency");
        }

        @Test
        void nonEmptyKeysAreKeptAsGiven() {
            ProduceOptions options = new ProduceOptions(" r ", "m", null, "idem", null);

            assertThat(options.routingKey()).isEqualTo(" r ");
            assertThat(options.messageKey()).isEqualTo("m");
            assertThat(options.idempotencyKey()).isEqualTo("idem");
        }
    }

    @Nested
    class Client {

        @Test
        void defaults() {
            ClientConfig config = ClientConfig.defaults();

            assertThat(config.schema()).isEqualTo("sqlstreams");
            assertThat(config.retry()).isEqualTo(RetryPolicy.clientDefaults());
            assertThat(config.allowDestroy()).isFalse();
            assertThat(config.disableManager()).isFalse();
            assertThat(config.logger()).isNotNull();
            assertThatCode(config::validate).doesNotThrowAnyException();
        }

        @Test
        void emptySchemaIsTheDefaultAndPartialRetryIsFilled() {
            ClientConfig config = ClientConfig.builder().schema("")
                    .retry(new RetryPolicy(9, null, null, null, null)).build();

            assertThat(config.schema()).isEqualTo("sqlstreams");
            assertThat(config.retry()).isEqualTo(new RetryPolicy(9, null, Duration.ofSeconds(1),
                    Duration.ofMinutes(5), 2));
        }

        @ParameterizedTest(name = "schema \"{0}\" accepted")
        @ValueSource(strings = {"sqlstreams", "_a1", "_", "a", "queue_2",
                "abcdefghijklmnopqrstuvwxyz0123456789_abcdefghijklmnopqrstuvwxyz"})
        void validSchemaNames(String schema) {
            assertThatCode(() -> ClientConfig.builder().schema(schema).build().validate()).doesNotThrowAnyException();
        }

        @Test
        void sixtyThreeCharactersAreAcceptedAndSixtyFourRejected() {
            String longest = "s" + "x".repeat(62);
            String tooLong = longest + "x";
            assertThat(longest).hasSize(63);

            assertThatCode(() -> ClientConfig.builder().schema(longest).build().validate()).doesNotThrowAnyException();
            InvalidNameException thrown = assertThrows(InvalidNameException.class,
                    () -> ClientConfig.builder().schema(tooLong).build().validate());
            assertThat(thrown.code()).isEqualTo(Code.SQL0109);
        }

        @ParameterizedTest(name = "schema \"{0}\" rejected")
        @ValueSource(strings = {"Public", "1abc", "a-b", "a;drop", "sqlStreams", "a b", " sqlstreams",
                "sqlstreams\n", "schéma", "a.b"})
        void invalidSchemaNamesAreRejectedWithSql0109(String schema) {
            ClientConfig config = ClientConfig.builder().schema(schema).build();

            InvalidNameException thrown = assertThrows(InvalidNameException.class, config::validate);

            assertThat(thrown.code()).isEqualTo(Code.SQL0109);
            assertThat(thrown.kind()).isEqualTo("schema");
            assertThat(thrown.name()).isEqualTo(schema);
            assertThat(thrown.getMessage()).startsWith("SQL0109 ");
        }

        @Test
        void invalidRetryIsSql0108() {
            ClientConfig config = ClientConfig.builder().retry(new RetryPolicy(-1, null, null, null, null)).build();

            assertViolations(config::validate, "retry.maxRetries");
        }

        @Test
        void retryTooLongInTotalIsRejected() {
            ClientConfig config = ClientConfig.builder()
                    .retry(new RetryPolicy(20_000, null, Duration.ofDays(7), Duration.ofDays(7), 1)).build();

            assertViolations(config::validate, "retry");
        }
    }

    @Nested
    class WireNames {

        @ParameterizedTest(name = "concurrency \"{0}\" -> {1}")
        @CsvSource({"parallel, PARALLEL", "EXCLUSIVE, EXCLUSIVE", "Ordered, ORDERED", "'  exclusive ', EXCLUSIVE"})
        void concurrencyParsesCaseInsensitively(String text, Concurrency expected) {
            assertThat(Concurrency.fromWireName(text)).isEqualTo(expected);
        }

        @ParameterizedTest(name = "delivery log \"{0}\" -> {1}")
        @CsvSource({"off, OFF", "FAILURES, FAILURES", "All, ALL"})
        void deliveryLogModeParsesCaseInsensitively(String text, DeliveryLogMode expected) {
            assertThat(DeliveryLogMode.fromWireName(text)).isEqualTo(expected);
        }

        @ParameterizedTest(name = "start \"{0}\" -> {1}")
        @CsvSource({"beginning, BEGINNING", "HEAD, HEAD", "Head, HEAD"})
        void startParsesCaseInsensitively(String text, Start expected) {
            assertThat(Start.fromWireName(text)).isEqualTo(expected);
        }

        @Test
        void wireNamesAreTheLowerCaseSpellings() {
            assertThat(Concurrency.PARALLEL.wireName()).isEqualTo("parallel");
            assertThat(Concurrency.EXCLUSIVE.wireName()).isEqualTo("exclusive");
            assertThat(Concurrency.ORDERED.wireName()).isEqualTo("ordered");
            assertThat(DeliveryLogMode.OFF.wireName()).isEqualTo("off");
            assertThat(DeliveryLogMode.FAILURES.wireName()).isEqualTo("failures");
            assertThat(DeliveryLogMode.ALL.wireName()).isEqualTo("all");
            assertThat(Start.BEGINNING.wireName()).isEqualTo("beginning");
            assertThat(Start.HEAD.wireName()).isEqualTo("head");
        }

        @Test
        void everyConstantRoundTrips() {
            for (Concurrency c : Concurrency.values()) {
                assertThat(Concurrency.fromWireName(c.wireName())).isEqualTo(c);
            }
            for (DeliveryLogMode m : DeliveryLogMode.values()) {
                assertThat(DeliveryLogMode.fromWireName(m.wireName())).isEqualTo(m);
            }
            for (Start s : Start.values()) {
                assertThat(Start.fromWireName(s.wireName())).isEqualTo(s);
            }
        }

        @Test
        void onlyExclusiveAndOrderedHoldAKey() {
            assertThat(Concurrency.PARALLEL.holdsKey()).isFalse();
            assertThat(Concurrency.EXCLUSIVE.holdsKey()).isTrue();
            assertThat(Concurrency.ORDERED.holdsKey()).isTrue();
        }

        @ParameterizedTest(name = "concurrency \"{0}\" rejected")
        @NullAndEmptySource
        @ValueSource(strings = {"serial", "exclusive-ish", "PARALLEL_", "0"})
        void unknownConcurrencyIsRejected(String text) {
            InvalidConfigurationException thrown = invalid(() -> Concurrency.fromWireName(text));

            assertThat(ConfigAssertions.properties(thrown)).containsExactly("concurrency");
        }

        @ParameterizedTest(name = "delivery log \"{0}\" rejected")
        @ValueSource(strings = {"none", "failure", "everything", "true"})
        void unknownDeliveryLogModeIsRejected(String text) {
            InvalidConfigurationException thrown = invalid(() -> DeliveryLogMode.fromWireName(text));

            assertThat(ConfigAssertions.properties(thrown)).containsExactly("deliveryLogMode");
        }

        @ParameterizedTest(name = "start \"{0}\" rejected")
        @ValueSource(strings = {"begin", "tail", "latest", "earliest"})
        void unknownStartIsRejected(String text) {
            InvalidConfigurationException thrown = invalid(() -> Start.fromWireName(text));

            assertThat(ConfigAssertions.properties(thrown)).containsExactly("start");
        }
    }
}
