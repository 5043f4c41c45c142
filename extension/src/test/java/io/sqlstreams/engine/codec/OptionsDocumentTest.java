package io.sqlstreams.engine.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sqlstreams.Code;
import io.sqlstreams.Concurrency;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The sparse options document of {@code message_log.options} and group declarations (digest §3.5). */
class OptionsDocumentTest {

    private static final Instant SCHEDULED = Instant.parse("2026-11-30T06:00:00Z");

    private static void assertRejected(String json, String expectedProperty) {
        InvalidConfigurationException thrown =
                assertThrows(InvalidConfigurationException.class, () -> OptionsDocument.fromJson(json));
        assertThat(thrown.code()).isEqualTo(Code.SQL0108);
        assertThat(thrown.violations()).as(json).singleElement()
                .extracting(InvalidConfigurationException.Violation::property).isEqualTo(expectedProperty);
    }

    @Nested
    class Write {

        @Test
        void nullOptionsHaveNoDocument() {
            assertThat(OptionsDocument.toJson(null)).isNull();
        }

        @Test
        void emptyOptionsAreAnEmptyObject() {
            assertThat(OptionsDocument.toJson(MessageOptions.empty())).isEqualTo("{}");
        }

        @Test
        void onlySetFieldsAreWritten() {
            MessageOptions options = MessageOptions.builder().timeout(Duration.ofSeconds(10))
                    .retry(RetryPolicy.builder().maxRetries(5).build()).build();

            assertThat(OptionsDocument.toJson(options)).isEqualTo("{\"timeout\":\"10s\",\"retry\":{\"max_retries\":5}}");
        }

        @Test
        void everyFieldInTheFixedOrder() {
            MessageOptions options = new MessageOptions(Concurrency.ORDERED, Duration.ofMinutes(90),
                    new RetryPolicy(5, 2, Duration.ofMillis(1_500), Duration.ofMinutes(5), 3),
                    SCHEDULED.plusMillis(500));

            assertThat(OptionsDocument.toJson(options)).isEqualTo("{\"concurrency\":\"ordered\",\"timeout\":\"1h30m0s\","
                    + "\"retry\":{\"max_retries\":5,\"max_delays\":2,\"base_delay\":\"1.5s\",\"max_delay\":\"5m0s\","
                    + "\"exponent\":3},\"scheduled_at\":\"2026-11-30T06:00:00.5Z\"}");
        }

        @Test
        void aRetryPolicyWithNoFieldSetIsAnEmptyObject() {
            MessageOptions options = MessageOptions.builder().retry(new RetryPolicy(0, null, Duration.ZERO, null, 0))
                    .build();

            assertThat(OptionsDocument.toJson(options)).isEqualTo("{\"retry\":{}}");
        }

        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
                "2026-11-30T06:00:00Z           | 2026-11-30T06:00:00Z",
                "2026-11-30T06:00:00.120Z       | 2026-11-30T06:00:00.12Z",
                "2026-11-30T06:00:00.000001Z    | 2026-11-30T06:00:00.000001Z",
                "2026-11-30T06:00:00.123456789Z | 2026-11-30T06:00:00.123456789Z",
                "1970-01-01T00:00:00Z           | 1970-01-01T00:00:00Z"})
        void scheduledAtIsRfc3339UtcWithTheNanosItNeeds(String instant, String expected) {
            MessageOptions options = MessageOptions.builder().scheduledAt(Instant.parse(instant)).build();

            assertThat(OptionsDocument.toJson(options)).isEqualTo("{\"scheduled_at\":\"" + expected + "\"}");
        }

        @Test
        void aDurationBeyondWhatCanBeReadBackIsRejectedByKey() {
            Duration tooLong = Duration.ofNanos(Long.MAX_VALUE).plusNanos(1);
            MessageOptions timeout = MessageOptions.builder().timeout(tooLong).build();
            MessageOptions maxDelay = MessageOptions.builder()
                    .retry(RetryPolicy.builder().maxDelay(tooLong).build()).build();

            InvalidConfigurationException thrown =
                    assertThrows(InvalidConfigurationException.class, () -> OptionsDocument.toJson(timeout));
            assertThat(thrown.violations()).singleElement()
                    .extracting(InvalidConfigurationException.Violation::property).isEqualTo("timeout");
            thrown = assertThrows(InvalidConfigurationException.class, () -> OptionsDocument.toJson(maxDelay));
            assertThat(thrown.violations()).singleElement()
                    .extracting(InvalidConfigurationException.Violation::property).isEqualTo("retry.max_delay");
        }
    }

    @Nested
    class Read {

        @Test
        void nullTextHasNoOptions() {
            assertThat(OptionsDocument.fromJson(null)).isNull();
        }

        @Test
        void theSeedExample() {
            MessageOptions options = OptionsDocument.fromJson("{\"timeout\":\"10s\",\"retry\":{\"max_retries\":5}}");

            assertThat(options).isEqualTo(new MessageOptions(null, Duration.ofSeconds(10),
                    new RetryPolicy(5, null, null, null, null), null));
        }

        @Test
        void anEmptyObjectIsEmptyOptions() {
            assertThat(OptionsDocument.fromJson("{}")).isEqualTo(MessageOptions.empty());
            assertThat(OptionsDocument.fromJson(" { } ")).isEqualTo(MessageOptions.empty());
        }

        @Test
        void anEmptyRetryObjectIsAnEmptyPolicyNotNone() {
            MessageOptions options = OptionsDocument.fromJson("{\"retry\":{}}");

            assertThat(options.retry()).isEqualTo(new RetryPolicy(null, null, null, null, null));
            assertThat(MessageOptions.equal(options, MessageOptions.empty())).isFalse();
        }

        @Test
        void everyField() {
            MessageOptions options = OptionsDocument.fromJson("{\"concurrency\":\"exclusive\",\"timeout\":\"PT30S\","
                    + "\"retry\":{\"max_retries\":3,\"max_delays\":4,\"base_delay\":\"250ms\",\"max_delay\":\"1h\","
                    + "\"exponent\":2},\"scheduled_at\":\"2026-11-30T07:00:00.25+01:00\"}");

            assertThat(options).isEqualTo(new MessageOptions(Concurrency.EXCLUSIVE, Duration.ofSeconds(30),
                    new RetryPolicy(3, 4, Duration.ofMillis(250), Duration.ofHours(1), 2), SCHEDULED.plusMillis(250)));
        }

        @Test
        void unknownKeysAreIgnored() {
            MessageOptions options = OptionsDocument.fromJson("{\"priority\":7,\"timeout\":\"1s\",\"extra\":{\"a\":[1]},"
                    + "\"retry\":{\"jitter\":\"10%\",\"exponent\":4}}");

            assertThat(options).isEqualTo(new MessageOptions(null, Duration.ofSeconds(1),
                    new RetryPolicy(null, null, null, null, 4), null));
        }

        @Test
        void jsonNullIsUnset() {
            MessageOptions options = OptionsDocument.fromJson("{\"concurrency\":null,\"timeout\":null,"
                    + "\"retry\":{\"max_retries\":null,\"base_delay\":null},\"scheduled_at\":null}");

            assertThat(options).isEqualTo(new MessageOptions(null, null, new RetryPolicy(null, null, null, null, null),
                    null));
            assertThat(OptionsDocument.fromJson("{\"retry\":null}")).isEqualTo(MessageOptions.empty());
        }

        @Test
        void zeroValuesAreUnset() {
            assertThat(OptionsDocument.fromJson("{\"timeout\":\"0s\",\"retry\":{\"max_retries\":0,\"max_delay\":\"0\"}}"))
                    .isEqualTo(new MessageOptions(null, null, new RetryPolicy(null, null, null, null, null), null));
        }

        @Test
        void valuesAreDecodedNotValidated() {
            MessageOptions options = OptionsDocument.fromJson("{\"timeout\":\"-5s\",\"retry\":{\"max_retries\":-1}}");

            assertThat(options).isEqualTo(new MessageOptions(null, Duration.ofSeconds(-5),
                    new RetryPolicy(-1, null, null, null, null), null));
        }

        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
                "''                                       | options",
                "'   '                                    | options",
                "{                                        | options",
                "'{\"timeout\":\"10s\",}'                 | options",
                "[]                                       | options",
                "'\"{}\"'                                 | options",
                "5                                        | options",
                "null                                     | options",
                "'{\"concurrency\":1}'                    | concurrency",
                "'{\"concurrency\":\"fast\"}'             | concurrency",
                "'{\"timeout\":10}'                       | timeout",
                "'{\"timeout\":\"10\"}'                   | timeout",
                "'{\"timeout\":\"10 s\"}'                 | timeout",
                "'{\"timeout\":true}'                     | timeout",
                "'{\"retry\":5}'                          | retry",
                "'{\"retry\":[]}'                         | retry",
                "'{\"retry\":\"{}\"}'                     | retry",
                "'{\"retry\":{\"max_retries\":\"5\"}}'    | retry.max_retries",
                "'{\"retry\":{\"max_retries\":1.5}}'      | retry.max_retries",
                "'{\"retry\":{\"max_retries\":5.0}}'      | retry.max_retries",
                "'{\"retry\":{\"max_delays\":3000000000}}' | retry.max_delays",
                "'{\"retry\":{\"exponent\":[2]}}'         | retry.exponent",
                "'{\"retry\":{\"base_delay\":1}}'         | retry.base_delay",
                "'{\"retry\":{\"base_delay\":\"1x\"}}'    | retry.base_delay",
                "'{\"retry\":{\"max_delay\":\"9999999h\"}}' | retry.max_delay",
                "'{\"scheduled_at\":1764482400}'          | scheduled_at",
                "'{\"scheduled_at\":\"2026-11-30\"}'      | scheduled_at",
                "'{\"scheduled_at\":\"2026-11-30T06:00:00\"}' | scheduled_at",
                "'{\"scheduled_at\":\"tomorrow\"}'        | scheduled_at"})
        void rejectsWrongTypesAndUnreadableValuesByKey(String json, String expectedProperty) {
            assertRejected(json, expectedProperty);
        }
    }

    @Nested
    class RoundTrip {

        private static Duration randomDuration(Random random) {
            return switch (random.nextInt(4)) {
                case 0 -> Duration.ofNanos(random.nextLong() & Long.MAX_VALUE);
                case 1 -> Duration.ofMillis(random.nextInt(600_000));
                case 2 -> Duration.ofSeconds(random.nextInt(86_400));
                default -> Duration.ofNanos(random.nextInt(1_000_000));
            };
        }

        private static <T> T sometimes(Random random, T value) {
            return random.nextBoolean() ? value : null;
        }

        private static RetryPolicy randomRetry(Random random) {
            return switch (random.nextInt(3)) {
                case 0 -> null;
                case 1 -> new RetryPolicy(null, null, null, null, null);
                default -> new RetryPolicy(
                        sometimes(random, random.nextInt(100)),
                        sometimes(random, random.nextInt()),
                        sometimes(random, randomDuration(random)),
                        sometimes(random, randomDuration(random)),
                        sometimes(random, random.nextInt(10)));
            };
        }

        private static MessageOptions randomOptions(Random random) {
            Concurrency[] policies = Concurrency.values();
            Instant scheduledAt = Instant.ofEpochSecond(random.nextInt(Integer.MAX_VALUE) * 2L,
                    random.nextBoolean() ? 0 : random.nextInt(1_000_000_000));
            return new MessageOptions(
                    sometimes(random, policies[random.nextInt(policies.length)]),
                    sometimes(random, randomDuration(random)),
                    randomRetry(random),
                    sometimes(random, scheduledAt));
        }

        @Test
        void fromJsonReadsBackWhatToJsonWrites() {
            Random random = new Random(1_764_482_400L);
            for (int i = 0; i < 5_000; i++) {
                MessageOptions options = randomOptions(random);
                String json = OptionsDocument.toJson(options);

                MessageOptions readBack = OptionsDocument.fromJson(json);

                assertThat(MessageOptions.equal(readBack, options)).as(json).isTrue();
                assertThat(OptionsDocument.toJson(readBack)).isEqualTo(json);
            }
        }

        @Test
        void nullRetryAndEmptyRetryStayApart() {
            MessageOptions none = MessageOptions.builder().timeout(Duration.ofSeconds(1)).build();
            MessageOptions empty = none.toBuilder().retry(RetryPolicy.builder().build()).build();

            assertThat(OptionsDocument.fromJson(OptionsDocument.toJson(none)).retry()).isNull();
            assertThat(OptionsDocument.fromJson(OptionsDocument.toJson(empty)).retry())
                    .isEqualTo(RetryPolicy.builder().build());
        }

        @Test
        void extremeDurations() {
            MessageOptions options = new MessageOptions(null, Duration.ofNanos(Long.MAX_VALUE),
                    new RetryPolicy(Integer.MAX_VALUE, Integer.MIN_VALUE, Duration.ofNanos(1),
                            Duration.ofNanos(Long.MIN_VALUE), 1), null);

            assertThat(OptionsDocument.fromJson(OptionsDocument.toJson(options))).isEqualTo(options);
        }
    }
}
