package io.sqlstreams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Laws of the MessageOptions / RetryPolicy helpers, checked on seeded random values. Every case gets its
 * own seed (shown in the display name); rerun one case by passing that number as {@code -Dsqlstreams.seed}
 * with {@code -Dsqlstreams.cases=1}.
 */
class MessageOptionsPropertiesTest {

    static final long BASE_SEED = Long.getLong("sqlstreams.seed", 0x5EED_0001L);
    static final int CASES = Integer.getInteger("sqlstreams.cases", 300);

    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    // ---------------------------------------------------------------- generators

    /** Random sparse values: nulls, zeros, tiny and huge durations, negative and extreme integers. */
    static final class Gen {
        final Random random;

        Gen(long seed) {
            random = new Random(seed);
        }

        boolean chance(int percent) {
            return random.nextInt(100) < percent;
        }

        Duration duration() {
            switch (random.nextInt(12)) {
                case 0: return null;
                case 1: return Duration.ZERO;
                case 2: return Duration.ofNanos(1 + random.nextInt(1000));
                case 3: return Duration.ofMillis(1 + random.nextInt(999));
                case 4: return Duration.ofSeconds(1 + random.nextInt(120));
                case 5: return Duration.ofMinutes(1 + random.nextInt(60));
                case 6: return Duration.ofDays(1 + random.nextInt(1000));
                case 7: return Duration.ofMillis(-1 - random.nextInt(10_000));
                case 8: return Duration.ofNanos(Long.MAX_VALUE);
                case 9: return Duration.ofDays(200_000); // beyond 2^63 ns
                case 10: return Duration.ofSeconds(30);
                default: return Duration.ofSeconds(1 + random.nextInt(5));
            }
        }

        Integer integer() {
            switch (random.nextInt(10)) {
                case 0: return null;
                case 1: return 0;
                case 2: return 1;
                case 3: return -1 - random.nextInt(100);
                case 4: return 1 + random.nextInt(1000);
                case 5: return Integer.MAX_VALUE;
                case 6: return Integer.MIN_VALUE;
                case 7: return 3;
                default: return 1 + random.nextInt(10);
            }
        }

        Concurrency concurrency() {
            int pick = random.nextInt(Concurrency.values().length + 1);
            return pick == 0 ? null : Concurrency.values()[pick - 1];
        }

        Instant instant() {
            if (chance(60)) {
                return null;
            }
            return Instant.ofEpochSecond(random.nextInt(2_000_000_000), random.nextInt(1_000_000_000));
        }

        RetryPolicy retry() {
            if (chance(25)) {
                return null;
            }
            return new RetryPolicy(integer(), integer(), duration(), duration(), integer());
        }

        /** Possibly null options. */
        MessageOptions options() {
            if (chance(10)) {
                return null;
            }
            return new MessageOptions(concurrency(), duration(), retry(), instant());
        }

        MessageOptions nonNullOptions() {
            return new MessageOptions(concurrency(), duration(), retry(), instant());
        }

        int positive(int bound) {
            return 1 + random.nextInt(bound);
        }

        Duration positiveDuration(long maxSeconds) {
            switch (random.nextInt(5)) {
                case 0: return Duration.ofNanos(positive(1_000_000));
                case 1: return Duration.ofMillis(positive(10_000));
                case 2: return Duration.ofSeconds(1 + (long) (random.nextDouble() * Math.min(maxSeconds, 3600)));
                case 3: return Duration.ofSeconds(1 + (long) (random.nextDouble() * maxSeconds));
                default: return Duration.ofSeconds(1);
            }
        }

        /**
         * A policy that validates after defaults: maxRetries ≤ 200 and delays ≤ 7 days (the longest timing), so
         * 199 sleeps stay far below 2^63 ns; unset fields are left for withDefaults to fill.
         */
        RetryPolicy validPolicy() {
            Integer maxRetries = chance(20) ? null : positive(200);
            Integer maxDelays = chance(50) ? null : random.nextInt(20);
            Duration base = chance(20) ? null : positiveDuration(86_400);
            Duration cap = chance(20) ? null : positiveDuration(Limits.LONGEST_TIMING.toSeconds() - 1);
            Integer exponent = chance(20) ? null : positive(10);
            RetryPolicy resolved = new RetryPolicy(maxRetries, maxDelays, base, cap, exponent).withDefaults();
            if (resolved.maxDelay().compareTo(resolved.baseDelay()) < 0) {
                resolved = resolved.toBuilder().baseDelay(resolved.maxDelay()).maxDelay(resolved.baseDelay()).build();
            }
            return resolved;
        }
    }

    private static <T> Stream<Arguments> cases(Function<Gen, Object[]> values) {
        return IntStream.range(0, CASES).mapToObj(i -> {
            long seed = BASE_SEED + i;
            Object[] generated = values.apply(new Gen(seed));
            Object[] all = new Object[generated.length + 1];
            all[0] = seed;
            System.arraycopy(generated, 0, all, 1, generated.length);
            return Arguments.of(all);
        });
    }

    static Stream<Arguments> optionsAndDefaults() {
        return cases(g -> new Object[] {g.options(), g.options()});
    }

    static Stream<Arguments> nonNullOptionsAndDefaults() {
        return cases(g -> new Object[] {g.nonNullOptions(), g.options()});
    }

    static Stream<Arguments> optionsAndOrderedBounds() {
        return cases(g -> {
            MessageOptions options = g.options();
            MessageOptions[] bounds = orderBounds(g.options(), g.options());
            return new Object[] {options, bounds[0], bounds[1]};
        });
    }

    static Stream<Arguments> optionsAndAnyBounds() {
        return cases(g -> new Object[] {g.options(), g.options(), g.options()});
    }

    static Stream<Arguments> validPolicies() {
        return cases(g -> new Object[] {g.validPolicy()});
    }

    static Stream<Arguments> retryPolicies() {
        return cases(g -> new Object[] {new RetryPolicy(g.integer(), g.integer(), g.duration(), g.duration(),
                g.integer())});
    }

    static Stream<Arguments> nonNullOptions() {
        return cases(g -> new Object[] {g.nonNullOptions()});
    }

    static Stream<Arguments> optionsAndOverride() {
        return cases(g -> new Object[] {g.options(), g.concurrency()});
    }

    // ---------------------------------------------------------------- bound helpers

    private static boolean positive(Duration d) {
        return d != null && !d.isNegative() && !d.isZero();
    }

    private static boolean positive(Integer i) {
        return i != null && i > 0;
    }

    /** Swaps each field where both bounds are positive and the floor is above the ceiling. */
    static MessageOptions[] orderBounds(MessageOptions low, MessageOptions high) {
        if (low == null || high == null) {
            return new MessageOptions[] {low, high};
        }
        Duration[] timeout = ordered(low.timeout(), high.timeout());
        RetryPolicy lowRetry = low.retry();
        RetryPolicy highRetry = high.retry();
        if (lowRetry != null && highRetry != null) {
            Integer[] maxRetries = ordered(lowRetry.maxRetries(), highRetry.maxRetries());
            Integer[] maxDelays = ordered(lowRetry.maxDelays(), highRetry.maxDelays());
            Duration[] base = ordered(lowRetry.baseDelay(), highRetry.baseDelay());
            Duration[] cap = ordered(lowRetry.maxDelay(), highRetry.maxDelay());
            Integer[] exponent = ordered(lowRetry.exponent(), highRetry.exponent());
            lowRetry = new RetryPolicy(maxRetries[0], maxDelays[0], base[0], cap[0], exponent[0]);
            highRetry = new RetryPolicy(maxRetries[1], maxDelays[1], base[1], cap[1], exponent[1]);
        }
        return new MessageOptions[] {
                new MessageOptions(low.concurrency(), timeout[0], lowRetry, low.scheduledAt()),
                new MessageOptions(high.concurrency(), timeout[1], highRetry, high.scheduledAt())};
    }

    private static Duration[] ordered(Duration low, Duration high) {
        return positive(low) && positive(high) && low.compareTo(high) > 0
                ? new Duration[] {high, low} : new Duration[] {low, high};
    }

    private static Integer[] ordered(Integer low, Integer high) {
        return positive(low) && positive(high) && low > high ? new Integer[] {high, low} : new Integer[] {low, high};
    }

    private static <T extends Comparable<T>> void assertWithin(String field, T value, T low, T high,
                                                               boolean lowPositive, boolean highPositive) {
        if (value == null) {
            return;
        }
        if (lowPositive) {
            assertThat(value).as("%s not below the floor %s", field, low).isGreaterThanOrEqualTo(low);
        }
        if (highPositive) {
            assertThat(value).as("%s not above the ceiling %s", field, high).isLessThanOrEqualTo(high);
        }
    }

    private static RetryPolicy retryOf(MessageOptions options) {
        return options == null || options.retry() == null ? new RetryPolicy(null, null, null, null, null)
                : options.retry();
    }

    private static Duration timeoutOf(MessageOptions options) {
        return options == null ? null : options.timeout();
    }

    private static <T> T either(T value, T fallback) {
        return value != null ? value : fallback;
    }

    // ---------------------------------------------------------------- fill

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("optionsAndDefaults")
    void fillIsIdempotent(long seed, MessageOptions options, MessageOptions defaults) {
        MessageOptions once = MessageOptions.fill(options, defaults);

        assertThat(MessageOptions.fill(once, defaults)).isEqualTo(once);
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("nonNullOptionsAndDefaults")
    void fillNeverChangesASetFieldAndTakesEveryUnsetOneFromTheDefaults(long seed, MessageOptions options,
                                                                      MessageOptions defaults) {
        MessageOptions before = options.toBuilder().build();

        MessageOptions filled = options.fill(defaults);

        assertThat(options).as("receiver unchanged").isEqualTo(before);
        MessageOptions d = defaults == null ? MessageOptions.empty() : defaults;
        assertThat(filled.concurrency()).isEqualTo(either(options.concurrency(), d.concurrency()));
        assertThat(filled.timeout()).isEqualTo(either(options.timeout(), d.timeout()));
        assertThat(filled.scheduledAt()).isEqualTo(options.scheduledAt());
        if (options.retry() == null && d.retry() == null) {
            assertThat(filled.retry()).isNull();
        } else {
            RetryPolicy own = retryOf(options);
            RetryPolicy fallback = retryOf(d);
            assertThat(filled.retry()).isEqualTo(new RetryPolicy(
                    either(own.maxRetries(), fallback.maxRetries()),
                    either(own.maxDelays(), fallback.maxDelays()),
                    either(own.baseDelay(), fallback.baseDelay()),
                    either(own.maxDelay(), fallback.maxDelay()),
                    either(own.exponent(), fallback.exponent())));
        }
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("optionsAndDefaults")
    void fillWithNullDefaultsIsTheReceiver(long seed, MessageOptions options, MessageOptions unused) {
        assertThat(MessageOptions.fill(options, null)).isEqualTo(options);
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("optionsAndDefaults")
    void fillOfNullIsTheDefaultsWithoutScheduledAt(long seed, MessageOptions unused, MessageOptions defaults) {
        MessageOptions filled = MessageOptions.fill(null, defaults);

        if (defaults == null) {
            assertThat(filled).isNull();
        } else {
            assertThat(filled).isEqualTo(defaults.toBuilder().scheduledAt(null).build());
        }
    }

    // ---------------------------------------------------------------- clamp

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("optionsAndOrderedBounds")
    void clampKeepsEverySetValueWithinPositiveBounds(long seed, MessageOptions options, MessageOptions minimum,
                                                     MessageOptions maximum) {
        MessageOptions clamped = MessageOptions.clamp(options, minimum, maximum);

        if (options == null) {
            assertThat(clamped).isNull();
            return;
        }
        assertThat(clamped.concurrency()).isEqualTo(options.concurrency());
        assertThat(clamped.scheduledAt()).isEqualTo(options.scheduledAt());
        assertThat(clamped.timeout() == null).isEqualTo(options.timeout() == null);
        assertWithin("timeout", clamped.timeout(), timeoutOf(minimum), timeoutOf(maximum),
                positive(timeoutOf(minimum)), positive(timeoutOf(maximum)));
        if (options.retry() == null) {
            assertThat(clamped.retry()).isNull();
            return;
        }
        RetryPolicy own = options.retry();
        RetryPolicy got = clamped.retry();
        RetryPolicy low = retryOf(minimum);
        RetryPolicy high = retryOf(maximum);
        assertThat(got.maxRetries() == null).isEqualTo(own.maxRetries() == null);
        assertThat(got.maxDelays() == null).isEqualTo(own.maxDelays() == null);
        assertThat(got.baseDelay() == null).isEqualTo(own.baseDelay() == null);
        assertThat(got.maxDelay() == null).isEqualTo(own.maxDelay() == null);
        assertThat(got.exponent() == null).isEqualTo(own.exponent() == null);
        assertWithin("maxRetries", got.maxRetries(), low.maxRetries(), high.maxRetries(),
                positive(low.maxRetries()), positive(high.maxRetries()));
        assertWithin("maxDelays", got.maxDelays(), low.maxDelays(), high.maxDelays(),
                positive(low.maxDelays()), positive(high.maxDelays()));
        assertWithin("baseDelay", got.baseDelay(), low.baseDelay(), high.baseDelay(),
                positive(low.baseDelay()), positive(high.baseDelay()));
        assertWithin("maxDelay", got.maxDelay(), low.maxDelay(), high.maxDelay(),
                positive(low.maxDelay()), positive(high.maxDelay()));
        assertWithin("exponent", got.exponent(), low.exponent(), high.exponent(),
                positive(low.exponent()), positive(high.exponent()));
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("optionsAndOrderedBounds")
    void clampLeavesValuesAlreadyWithinBoundsAlone(long seed, MessageOptions options, MessageOptions minimum,
                                                   MessageOptions maximum) {
        if (options == null) {
            return;
        }
        MessageOptions clamped = MessageOptions.clamp(options, minimum, maximum);
        Duration timeout = options.timeout();
        if (timeout != null
                && (!positive(timeoutOf(minimum)) || timeout.compareTo(timeoutOf(minimum)) >= 0)
                && (!positive(timeoutOf(maximum)) || timeout.compareTo(timeoutOf(maximum)) <= 0)) {
            assertThat(clamped.timeout()).isEqualTo(timeout);
        }
        if (options.retry() != null) {
            Integer retries = options.retry().maxRetries();
            Integer low = retryOf(minimum).maxRetries();
            Integer high = retryOf(maximum).maxRetries();
            if (retries != null && (!positive(low) || retries >= low) && (!positive(high) || retries <= high)) {
                assertThat(clamped.retry().maxRetries()).isEqualTo(retries);
            }
        }
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("optionsAndAnyBounds")
    void clampIsIdempotent(long seed, MessageOptions options, MessageOptions minimum, MessageOptions maximum) {
        MessageOptions once = MessageOptions.clamp(options, minimum, maximum);

        assertThat(MessageOptions.clamp(once, minimum, maximum)).isEqualTo(once);
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("optionsAndAnyBounds")
    void clampNeverChangesItsArguments(long seed, MessageOptions options, MessageOptions minimum,
                                       MessageOptions maximum) {
        MessageOptions[] before = {copy(options), copy(minimum), copy(maximum)};

        MessageOptions.clamp(options, minimum, maximum);
        MessageOptions.fill(options, minimum);

        assertThat(new MessageOptions[] {options, minimum, maximum}).containsExactly(before);
    }

    private static MessageOptions copy(MessageOptions options) {
        return options == null ? null : options.toBuilder().build();
    }

    // ---------------------------------------------------------------- resolveConcurrency

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("optionsAndOverride")
    void resolveConcurrencyAlwaysPicksAPolicyAndKeepsTheRest(long seed, MessageOptions options,
                                                             Concurrency override) {
        MessageOptions resolved = MessageOptions.resolveConcurrency(options, override);
        MessageOptions base = options == null ? MessageOptions.empty() : options;

        Concurrency expected = override != null ? override
                : base.concurrency() != null ? base.concurrency() : Concurrency.PARALLEL;
        assertThat(resolved.concurrency()).isEqualTo(expected);
        assertThat(resolved.timeout()).isEqualTo(base.timeout());
        assertThat(resolved.retry()).isSameAs(base.retry());
        assertThat(resolved.scheduledAt()).isEqualTo(base.scheduledAt());
    }

    // ---------------------------------------------------------------- delays

    private static BigInteger nanos(Duration d) {
        return BigInteger.valueOf(d.getSeconds()).multiply(BigInteger.valueOf(1_000_000_000L))
                .add(BigInteger.valueOf(d.getNano()));
    }

    /** base × exponent^attempt, capped at maxDelay, for a resolved valid policy. */
    private static BigInteger expectedDelay(RetryPolicy policy, int attempt) {
        BigInteger raw = nanos(policy.baseDelay()).multiply(BigInteger.valueOf(policy.exponent()).pow(attempt));
        return raw.min(nanos(policy.maxDelay()));
    }

    @ParameterizedTest(name = "seed={0}: {1}")
    @MethodSource("validPolicies")
    void generatedPoliciesAreValid(long seed, RetryPolicy policy) {
        assertThatCode(policy::validate).doesNotThrowAnyException();
    }

    @ParameterizedTest(name = "seed={0}: {1}")
    @MethodSource("validPolicies")
    void calculateDelayIsMonotoneCappedAndNeverNegative(long seed, RetryPolicy policy) {
        Duration previous = Duration.ZERO;
        for (int attempt = 0; attempt <= 80; attempt++) {
            Duration delay = policy.calculateDelay(attempt);
            assertThat(delay).as("attempt %d", attempt)
                    .isGreaterThanOrEqualTo(previous)
                    .isLessThanOrEqualTo(policy.maxDelay())
                    .isGreaterThanOrEqualTo(Duration.ZERO);
            assertThat(nanos(delay)).as("attempt %d = min(base × exponent^attempt, maxDelay)", attempt)
                    .isEqualTo(expectedDelay(policy, attempt));
            previous = delay;
        }
        Duration last = policy.calculateDelay(Integer.MAX_VALUE);
        assertThat(last).isEqualTo(policy.exponent() > 1 ? policy.maxDelay() : policy.baseDelay());
    }

    @ParameterizedTest(name = "seed={0}: {1}")
    @MethodSource("validPolicies")
    void calculateTotalDelayIsTheSumOfEverySleepBetweenAttempts(long seed, RetryPolicy policy) {
        BigInteger sum = BigInteger.ZERO;
        for (int attempt = 0; attempt <= policy.maxRetries() - 2; attempt++) {
            sum = sum.add(nanos(policy.calculateDelay(attempt)));
        }

        assertThat(sum).isLessThanOrEqualTo(LONG_MAX);
        assertThat(policy.calculateTotalDelay()).isEqualTo(Duration.ofNanos(sum.longValueExact()));
    }

    @ParameterizedTest(name = "seed={0}: {1}")
    @MethodSource("validPolicies")
    void maxDelaysChangesNeitherCalculation(long seed, RetryPolicy policy) {
        RetryPolicy other = policy.toBuilder().maxDelays(policy.maxDelays() == null ? 4 : policy.maxDelays() + 1)
                .build();

        assertThat(other.calculateTotalDelay()).isEqualTo(policy.calculateTotalDelay());
        for (int attempt = 0; attempt < 40; attempt++) {
            assertThat(other.calculateDelay(attempt)).isEqualTo(policy.calculateDelay(attempt));
        }
    }

    @ParameterizedTest(name = "seed={0}: {1}")
    @MethodSource("retryPolicies")
    void calculationsNeverGoNegativeEvenForInvalidPolicies(long seed, RetryPolicy policy) {
        for (int attempt : new int[] {0, 1, 2, 5, 30, 64, 1000, Integer.MAX_VALUE}) {
            assertThat(policy.calculateDelay(attempt)).as("attempt %d", attempt).isGreaterThanOrEqualTo(Duration.ZERO);
        }
        assertThat(policy.calculateTotalDelay()).isGreaterThanOrEqualTo(Duration.ZERO);
    }

    @ParameterizedTest(name = "seed={0}: {1}")
    @MethodSource("retryPolicies")
    void totalDelayIsZeroWithoutASecondAttempt(long seed, RetryPolicy policy) {
        if (policy.maxRetries() == null || policy.maxRetries() <= 1) {
            // Σ calculateDelay(a) for a = 0 … maxRetries − 2 is empty (digest §4.5)
            assertThat(policy.calculateTotalDelay()).as("total of %s", policy).isEqualTo(Duration.ZERO);
        }
    }

    // ---------------------------------------------------------------- equality

    private static Integer otherInteger(Integer value) {
        if (value == null) {
            return 7;
        }
        return value == Integer.MAX_VALUE ? value - 1 : value == -1 ? -2 : value + 1;
    }

    private static Duration otherDuration(Duration value) {
        return value == null ? Duration.ofSeconds(7) : value.equals(Duration.ofNanos(-1)) ? Duration.ofNanos(-2)
                : value.plusNanos(1);
    }

    private static List<RetryPolicy> singleFieldChanges(RetryPolicy p) {
        List<RetryPolicy> changed = new ArrayList<>();
        changed.add(p.toBuilder().maxRetries(otherInteger(p.maxRetries())).build());
        changed.add(p.toBuilder().maxDelays(otherInteger(p.maxDelays())).build());
        changed.add(p.toBuilder().baseDelay(otherDuration(p.baseDelay())).build());
        changed.add(p.toBuilder().maxDelay(otherDuration(p.maxDelay())).build());
        changed.add(p.toBuilder().exponent(otherInteger(p.exponent())).build());
        return changed;
    }

    @ParameterizedTest(name = "seed={0}: {1}")
    @MethodSource("retryPolicies")
    void retryPolicyEqualityIgnoresNoStoredField(long seed, RetryPolicy policy) {
        RetryPolicy copy = policy.toBuilder().build();
        assertThat(copy).isEqualTo(policy).hasSameHashCodeAs(policy);

        for (RetryPolicy changed : singleFieldChanges(policy)) {
            assertThat(changed).as("changed %s", changed).isNotEqualTo(policy);
        }
    }

    @ParameterizedTest(name = "seed={0}: {1}")
    @MethodSource("nonNullOptions")
    void messageOptionsEqualityIgnoresNoStoredField(long seed, MessageOptions options) {
        MessageOptions copy = options.toBuilder().build();
        assertThat(MessageOptions.equal(options, copy)).isTrue();
        assertThat(copy).hasSameHashCodeAs(options);

        List<MessageOptions> changed = new ArrayList<>();
        Concurrency[] all = Concurrency.values();
        changed.add(options.toBuilder().concurrency(options.concurrency() == null ? Concurrency.PARALLEL
                : all[(options.concurrency().ordinal() + 1) % all.length]).build());
        changed.add(options.toBuilder().timeout(otherDuration(options.timeout())).build());
        changed.add(options.toBuilder().scheduledAt(options.scheduledAt() == null ? Instant.EPOCH
                : options.scheduledAt().plusNanos(1)).build());
        if (options.retry() == null) {
            changed.add(options.toBuilder().retry(RetryPolicy.consumerDefaults()).build());
        } else {
            changed.add(options.toBuilder().retry(null).build());
            for (RetryPolicy retry : singleFieldChanges(options.retry())) {
                changed.add(options.toBuilder().retry(retry).build());
            }
        }
        for (MessageOptions other : changed) {
            assertThat(MessageOptions.equal(options, other)).as("changed %s", other).isFalse();
            assertThat(MessageOptions.equal(other, options)).as("changed %s", other).isFalse();
        }
        assertThat(MessageOptions.equal(options, null)).isFalse();
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("optionsAndDefaults")
    void equalIsSymmetric(long seed, MessageOptions a, MessageOptions b) {
        BiFunction<MessageOptions, MessageOptions, Boolean> equal = MessageOptions::equal;

        assertThat(equal.apply(a, b)).isEqualTo(equal.apply(b, a));
        assertThat(equal.apply(a, a)).isTrue();
    }
}
