package io.sqlstreams.jakarta.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sqlstreams.Binding;
import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.Start;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.jakarta.beans.Payment;
import io.sqlstreams.testing.PostgresTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every property of the settings catalogue, set through MicroProfile Config to a value other than its default,
 * reaches what the engine reads: a stored declaration property the copy a session reads back from PostgreSQL
 * (read through the same resolution the claim and exception paths use), {@code start} and {@code bindings} what
 * {@code register} writes, a session option the accessor the session reads it by, a runtime setting the
 * {@link GroupSettings} the Jakarta runtime reads. Each expected value is written out here, apart from the
 * catalogue's binders.
 */
@PostgresTest
class EveryPropertyReachesTheEngineTest extends EngineTestBase {
    private static final String STREAM = "payments.requested";
    private static final Duration SEVEN_SECONDS = Duration.ofSeconds(7);
    private static final Duration HANDLER_TIME = Duration.ofMillis(300);
    /** A produced message asking for less than any floor set here: the floors raise it. */
    private static final MessageOptions ASKS_LITTLE = new MessageOptions(null, Duration.ofMillis(1),
            new RetryPolicy(1, 1, Duration.ofMillis(1), Duration.ofMillis(1), 1), null);
    /** A produced message asking for more than any ceiling set here: the ceilings lower it. */
    private static final MessageOptions ASKS_MUCH = new MessageOptions(null, Duration.ofHours(1),
            new RetryPolicy(100, 100, Duration.ofHours(1), Duration.ofHours(1), 100), null);

    /**
     * One property: the text configured, the value the engine must see, and how the engine reads it.
     *
     * @param <S> what the reader reads: the stored declaration, the session options or the group's settings
     */
    private record Reach<S>(String property, String text, Object expected, Function<S, Object> reader) {
        @Override
        public String toString() {
            return property + " = " + text;
        }
    }

    /** Declaration properties, read by the engine from the document stored on the group's worker rows. */
    static Stream<Reach<ConsumerConfig>> storedDeclaration() {
        return Stream.of(
                new Reach<>("message.timeout", "7s", SEVEN_SECONDS, c -> c.resolve(null).timeout()),
                new Reach<>("message.retry.max-retries", "7", 7, c -> c.resolve(null).retry().maxRetries()),
                new Reach<>("message.retry.max-delays", "7", 7, c -> c.resolve(null).retry().maxDelays()),
                new Reach<>("message.retry.base-delay", "7s", SEVEN_SECONDS, c -> c.resolve(null).retry().baseDelay()),
                new Reach<>("message.retry.max-delay", "7s", SEVEN_SECONDS, c -> c.resolve(null).retry().maxDelay()),
                new Reach<>("message.retry.exponent", "7", 7, c -> c.resolve(null).retry().exponent()),
                new Reach<>("message-min.timeout", "7s", SEVEN_SECONDS, c -> c.resolve(ASKS_LITTLE).timeout()),
                new Reach<>("message-min.retry.max-retries", "2", 2,
                        c -> c.resolve(ASKS_LITTLE).retry().maxRetries()),
                new Reach<>("message-min.retry.max-delays", "2", 2, c -> c.resolve(ASKS_LITTLE).retry().maxDelays()),
                new Reach<>("message-min.retry.base-delay", "500ms", Duration.ofMillis(500),
                        c -> c.resolve(ASKS_LITTLE).retry().baseDelay()),
                new Reach<>("message-min.retry.max-delay", "7s", SEVEN_SECONDS,
                        c -> c.resolve(ASKS_LITTLE).retry().maxDelay()),
                new Reach<>("message-min.retry.exponent", "2", 2, c -> c.resolve(ASKS_LITTLE).retry().exponent()),
                new Reach<>("message-max.timeout", "7s", SEVEN_SECONDS, c -> c.resolve(ASKS_MUCH).timeout()),
                new Reach<>("message-max.retry.max-retries", "7", 7, c -> c.resolve(ASKS_MUCH).retry().maxRetries()),
                new Reach<>("message-max.retry.max-delays", "7", 7, c -> c.resolve(ASKS_MUCH).retry().maxDelays()),
                new Reach<>("message-max.retry.base-delay", "7s", SEVEN_SECONDS,
                        c -> c.resolve(ASKS_MUCH).retry().baseDelay()),
                new Reach<>("message-max.retry.max-delay", "7s", SEVEN_SECONDS,
                        c -> c.resolve(ASKS_MUCH).retry().maxDelay()),
                new Reach<>("message-max.retry.exponent", "7", 7, c -> c.resolve(ASKS_MUCH).retry().exponent()),
                new Reach<>("concurrency-override", "exclusive", Concurrency.EXCLUSIVE,
                        c -> c.resolve(null).concurrency()),
                new Reach<>("exception-initial-backoff", "7s", SEVEN_SECONDS,
                        ConsumerConfig::resolvedExceptionInitialBackoff),
                new Reach<>("max-range-reclaims", "7", 7, ConsumerConfig::resolvedMaxRangeReclaims));
    }

    /** Session options, handed to the session with a declaration of defaults. */
    static Stream<Reach<ConsumeOptions>> sessionOptions() {
        ConsumerConfig declaration = ConsumerConfig.defaults();
        return Stream.of(
                new Reach<>("batch-limit", "7", 7, ConsumeOptions::resolvedBatchLimit),
                new Reach<>("queue-size", "9", 9, ConsumeOptions::resolvedQueueSize),
                new Reach<>("message-concurrency", "7", 7, ConsumeOptions::resolvedMessageConcurrency),
                new Reach<>("claim-poll-rate", "7s", SEVEN_SECONDS, ConsumeOptions::resolvedClaimPollRate),
                new Reach<>("queue-margin", "7s", Duration.ofMillis(30_100 + 7_000 + 2_000),
                        o -> o.rangeLeaseDuration(declaration)),
                new Reach<>("record-margin", "7s", SEVEN_SECONDS, ConsumeOptions::resolvedRecordMargin),
                new Reach<>("timeout-grace", "7s", SEVEN_SECONDS, ConsumeOptions::resolvedTimeoutGrace),
                new Reach<>("slow-dispatch-threshold", "7s", SEVEN_SECONDS,
                        ConsumeOptions::resolvedSlowDispatchThreshold),
                new Reach<>("instance-ttl", "7s", SEVEN_SECONDS, ConsumeOptions::resolvedInstanceTtl),
                new Reach<>("binding-retry-interval", "7s", SEVEN_SECONDS,
                        ConsumeOptions::resolvedBindingRetryInterval),
                new Reach<>("config-refresh-interval", "7s", SEVEN_SECONDS,
                        ConsumeOptions::resolvedConfigRefreshInterval),
                new Reach<>("shutdown-timeout", "7s", SEVEN_SECONDS, o -> o.resolvedShutdownTimeout(declaration)),
                new Reach<>("disable-graceful-shutdown", "true", true, ConsumeOptions::disableGracefulShutdown));
    }

    /** Settings of this box that the Jakarta runtime reads rather than the engine. */
    static Stream<Reach<GroupSettings>> runtimeSettings() {
        return Stream.of(
                new Reach<>("enabled", "false", false, GroupSettings::enabled),
                new Reach<>("executor", "java:app/concurrent/payments", "java:app/concurrent/payments",
                        GroupSettings::executorJndiName));
    }

    @Test
    void everyCataloguePropertyIsCheckedHereExactlyOnce() {
        List<String> checked = Stream.of(storedDeclaration(), sessionOptions(), runtimeSettings())
                .flatMap(reaches -> reaches.map(Reach::property))
                .collect(Collectors.toList());
        checked.addAll(List.of("start", "bindings"));

        assertThat(checked).doesNotHaveDuplicates();
        assertThat(new TreeSet<>(checked)).isEqualTo(SettingsCatalogue.groupProperties().stream()
                .map(PropertyDeclaration::name).collect(Collectors.toCollection(TreeSet::new)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("storedDeclaration")
    void aDeclarationPropertyReachesTheCopyASessionReadsBack(Reach<ConsumerConfig> reach) {
        assertThat(reach.reader().apply(ConsumerConfig.defaults())).as("unconfigured").isNotEqualTo(reach.expected());
        ConsumerHandle<Payment> group = stream().consumer(reach.property());

        group.register(configured(reach.property(), reach.text()).declaration());

        ConsumerConfig stored = group.inspect().declaredConfig();
        assertThat(reach.reader().apply(stored)).isEqualTo(reach.expected());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sessionOptions")
    void aSessionOptionReachesWhatTheSessionReads(Reach<ConsumeOptions> reach) {
        assertThat(reach.reader().apply(ConsumeOptions.defaults())).as("unconfigured").isNotEqualTo(reach.expected());

        GroupSettings settings = configured(reach.property(), reach.text());

        assertThat(settings.declaration()).isEqualTo(ConsumerConfig.defaults());
        assertThat(reach.reader().apply(settings.options())).isEqualTo(reach.expected());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runtimeSettings")
    void aRuntimeSettingReachesTheGroupSettings(Reach<GroupSettings> reach) {
        assertThat(reach.reader().apply(configured(reach.property(), "")))
                .as("unconfigured").isNotEqualTo(reach.expected());

        assertThat(reach.reader().apply(configured(reach.property(), reach.text()))).isEqualTo(reach.expected());
    }

    @Test
    void startHeadPlacesTheNewGroupsCursorAtTheHead() {
        StreamHandle<Payment> stream = stream();
        Producer<Payment> producer = stream.producer().register();
        producer.produce(new Payment("order-1", "ok"));
        producer.produce(new Payment("order-2", "ok"));
        ConsumerHandle<Payment> fromHead = stream.consumer("start");
        ConsumerHandle<Payment> unconfigured = stream.consumer("start-unconfigured");

        fromHead.register(configured("start", "head").declaration());
        unconfigured.register(configured("start", "").declaration());

        assertThat(fromHead.inspect().committed()).isEqualTo(fromHead.inspect().head()).isPositive();
        assertThat(unconfigured.inspect().committed()).isZero();
    }

    @Test
    void bindingsBecomeTheGroupsBindingSet() {
        ConsumerHandle<Payment> bound = stream().consumer("bindings");
        ConsumerHandle<Payment> unconfigured = stream().consumer("bindings-unconfigured");

        bound.register(configured("bindings", "orders.*, refunds").declaration());
        unconfigured.register(configured("bindings", "").declaration());

        assertThat(bound.binding().get()).map(Binding::patterns).contains(List.of("orders.*", "refunds"));
        assertThat(unconfigured.binding().get()).isEmpty();
    }

    /**
     * {@code slow-dispatch-threshold} is read by the running session, not only by its options: a handler slower
     * than the threshold logs SQL0039 naming its group.
     */
    @Test
    void slowDispatchThresholdReachesTheSession() throws Exception {
        ConsumeOptions options = configured("slow-dispatch-threshold", "50ms").options();

        ConsumerSession session = startAtTheHead("slow-dispatch", options, HANDLER_TIME);
        try {
            stream().producer().register().produce(new Payment("order-slow", "ok"));
            await().alias("an SQL0039 line").atMost(Duration.ofSeconds(10))
                    .until(() -> !logger.withCode("SQL0039").isEmpty());
        } finally {
            session.close();
        }

        assertThat(logger.withCode("SQL0039")).singleElement(InstanceOfAssertFactories.STRING)
                .contains("consumer group \"slow-dispatch\"").contains("over the slow-dispatch threshold of 50 ms");
    }

    /** Neither a handler faster than a configured threshold nor any handler without one logs SQL0039. */
    @ParameterizedTest(name = "{0}: threshold \"{1}\", handler {2} ms")
    @CsvSource({"fast-handler, 1s, 0", "threshold-off, '', 300"})
    void noSlowDispatchLineBelowTheThresholdOrWithoutOne(String groupName, String threshold, long handlerMillis)
            throws Exception {
        ConsumeOptions options = configured("slow-dispatch-threshold", threshold).options();

        try (ConsumerSession session = startAtTheHead(groupName, options, Duration.ofMillis(handlerMillis))) {
            stream().producer().register().produce(new Payment("order-dispatched", "ok"));
            await().alias("the delivery succeeded").atMost(Duration.ofSeconds(10))
                    .until(() -> session.counters().success() == 1);
        }

        assertThat(logger.withCode("SQL0039")).as("outcomes are recorded after SQL0039, never before").isEmpty();
    }

    /** A session of a new group placed at the stream's head, whose handler blocks for {@code handlerTime}. */
    private ConsumerSession startAtTheHead(String groupName, ConsumeOptions options, Duration handlerTime)
            throws InterruptedException {
        ConsumerHandle<Payment> group = stream().consumer(groupName);
        ConsumerSession session = group.register(ConsumerConfig.builder().start(Start.HEAD).build())
                .start(payment -> new CountDownLatch(1).await(handlerTime.toMillis(), TimeUnit.MILLISECONDS), options);
        assertThat(session.awaitStarted(Duration.ofSeconds(10))).as("session started").isTrue();
        return session;
    }

    /** The registered stream every group here reads. */
    private StreamHandle<Payment> stream() {
        StreamHandle<Payment> stream = client.stream(STREAM, Payment.class);
        if (stream.get().isEmpty()) {
            stream.register();
        }
        return stream;
    }

    /**
     * The settings of a group with only {@code property} configured, to {@code text}; an empty text configures
     * nothing.
     */
    private static GroupSettings configured(String property, String text) {
        GroupAddress address = new GroupAddress(STREAM, "charge-cards");
        Map<String, String> properties = text.isEmpty() ? Map.of()
                : Map.of(PropertyKeys.groupKey(address.group(), property), text);
        ResolvedSettings resolved = SettingsResolver.resolve(Configs.application(properties), List.of(address));
        assertThat(resolved.problems()).as("problems").isEmpty();
        return resolved.groups().get(address);
    }
}
