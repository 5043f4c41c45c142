package io.sqlstreams;

import static io.sqlstreams.ConfigAssertions.invalid;
import static io.sqlstreams.ConfigAssertions.properties;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every duration of every configuration type has an upper bound ({@link Limits}), refused by the type's own
 * validation with SQL0108 naming the field and the bound: a huge duration must never reach arithmetic that
 * overflows after rows were written.
 */
class DurationBoundsTest {
    private static final Duration HUGE = Duration.ofSeconds(Long.MAX_VALUE);
    private static final Duration TIMING = Limits.LONGEST_TIMING;
    private static final Duration AGE = Limits.LONGEST_AGE;
    /** Records of the API that are read back from the database, never configured. */
    private static final Set<Class<?>> STORED_ROWS = Set.of(io.sqlstreams.Stream.class,
            AlertEvaluationSnapshot.class);

    /**
     * One bounded field: the record component it is ({@code owner.component}), the property path its
     * violation names, its bound, and how a configuration holding a value there is validated.
     */
    record Field(Class<?> owner, String component, String property, Duration bound,
                 Function<Duration, Executable> validation) {
        @Override
        public String toString() {
            return owner.getSimpleName() + " " + property;
        }
    }

    static Stream<Field> fields() {
        return Stream.of(
                consume("claimPollRate", value -> ConsumeOptions.builder().claimPollRate(value)),
                consume("queueMargin", value -> ConsumeOptions.builder().queueMargin(value)),
                consume("recordMargin", value -> ConsumeOptions.builder().recordMargin(value)),
                consume("timeoutGrace", value -> ConsumeOptions.builder().timeoutGrace(value)),
                consume("slowDispatchThreshold", value -> ConsumeOptions.builder().slowDispatchThreshold(value)),
                consume("instanceTtl", value -> ConsumeOptions.builder().instanceTtl(value)),
                consume("bindingRetryInterval", value -> ConsumeOptions.builder().bindingRetryInterval(value)),
                consume("configRefreshInterval", value -> ConsumeOptions.builder().configRefreshInterval(value)),
                consume("shutdownTimeout", value -> ConsumeOptions.builder().shutdownTimeout(value)),

                group(MessageOptions.class, "timeout", "message.timeout",
                        value -> ConsumerConfig.builder().message(timeout(value))),
                group(RetryPolicy.class, "baseDelay", "message.retry.baseDelay",
                        value -> ConsumerConfig.builder().message(retry(RetryPolicy.builder().baseDelay(value)))),
                group(RetryPolicy.class, "maxDelay", "message.retry.maxDelay",
                        value -> ConsumerConfig.builder().message(retry(RetryPolicy.builder().maxDelay(value)))),
                group(MessageOptions.class, "timeout", "messageMin.timeout",
                        value -> ConsumerConfig.builder().messageMin(timeout(value))),
                group(RetryPolicy.class, "baseDelay", "messageMin.retry.baseDelay",
                        value -> ConsumerConfig.builder().messageMin(retry(RetryPolicy.builder().baseDelay(value)))),
                group(RetryPolicy.class, "maxDelay", "messageMin.retry.maxDelay",
                        value -> ConsumerConfig.builder().messageMin(retry(RetryPolicy.builder().maxDelay(value)))),
                group(MessageOptions.class, "timeout", "messageMax.timeout",
                        value -> ConsumerConfig.builder().messageMax(timeout(value))),
                group(RetryPolicy.class, "baseDelay", "messageMax.retry.baseDelay",
                        value -> ConsumerConfig.builder().messageMax(retry(RetryPolicy.builder().baseDelay(value)))),
                group(RetryPolicy.class, "maxDelay", "messageMax.retry.maxDelay",
                        value -> ConsumerConfig.builder().messageMax(retry(RetryPolicy.builder().maxDelay(value)))),
                group(ConsumerConfig.class, "exceptionInitialBackoff", "exceptionInitialBackoff",
                        value -> ConsumerConfig.builder().exceptionInitialBackoff(value)),

                new Field(MessageOptions.class, "timeout", "message.timeout", TIMING,
                        value -> timeout(value)::validate),
                new Field(RetryPolicy.class, "baseDelay", "retry.baseDelay", TIMING,
                        value -> RetryPolicy.builder().baseDelay(value).build().withDefaults()::validate),
                new Field(RetryPolicy.class, "maxDelay", "retry.maxDelay", TIMING,
                        value -> RetryPolicy.builder().maxDelay(value).build().withDefaults()::validate),

                producer(BatcherConfig.class, "attemptTimeout", "batch.attemptTimeout",
                        value -> new ProducerConfig(null, new BatcherConfig(null, null, value, null), null)),
                producer(BatcherConfig.class, "shutdownGrace", "batch.shutdownGrace",
                        value -> new ProducerConfig(null, new BatcherConfig(null, null, null, value), null)),
                producer(ProducerConfig.class, "slowProduceThreshold", "slowProduceThreshold",
                        value -> new ProducerConfig(null, null, value)),
                producer(MessageOptions.class, "timeout", "message.timeout",
                        value -> new ProducerConfig(timeout(value), null, null)),
                producer(RetryPolicy.class, "maxDelay", "message.retry.maxDelay",
                        value -> new ProducerConfig(retry(RetryPolicy.builder().maxDelay(value)), null, null)),

                new Field(MessageOptions.class, "timeout", "message.timeout", TIMING,
                        value -> () -> ProduceOptions.builder().message(timeout(value)).build().validate(null)),
                new Field(RetryPolicy.class, "baseDelay", "message.retry.baseDelay", TIMING,
                        value -> () -> ProduceOptions.builder().build()
                                .validate(retry(RetryPolicy.builder().baseDelay(value)))),

                new Field(RetryPolicy.class, "baseDelay", "retry.baseDelay", TIMING, value -> ClientConfig.builder()
                        .retry(RetryPolicy.builder().baseDelay(value).build()).build()::validate),
                new Field(RetryPolicy.class, "maxDelay", "retry.maxDelay", TIMING, value -> ClientConfig.builder()
                        .retry(RetryPolicy.builder().maxDelay(value).build()).build()::validate),
                new Field(ManagerConfig.class, "instanceTtl", "manager.instanceTtl", TIMING, value -> ClientConfig
                        .builder().manager(new ManagerConfig(value, null, null, null)).build()::validate),
                new Field(ManagerConfig.class, "instanceLogTtl", "manager.instanceLogTtl", AGE, value -> ClientConfig
                        .builder().manager(new ManagerConfig(null, value, null, null)).build()::validate),
                new Field(SchedulerConfig.class, "timeout", "schedulerConfig.timeout", TIMING,
                        value -> new SchedulerConfig(value, null, null)::validate),
                new Field(SystemConfig.class, "managerPollRate", "managerPollRate", TIMING,
                        value -> new SystemConfig(value)::validate),
                new Field(SystemConfig.class, "metricCollectorPollRate", "metricCollectorPollRate", TIMING,
                        value -> new SystemConfig(null, value)::validate),
                new Field(StreamAlertConfig.class, "pendingDuration", "partitionCountAlert.pendingDuration", TIMING,
                        value -> SystemConfig.defaults().withAlerts(new StreamAlertConfig(null, null, value, null,
                                false), null, null, null)::validate),
                new Field(StreamAlertConfig.class, "maximumGap", "workerLivenessAlert.maximumGap", TIMING,
                        value -> SystemConfig.defaults().withAlerts(null, null, new StreamAlertConfig(null, null, null,
                                value, false), null)::validate),
                new Field(CollectorProgressAlertConfig.class, "maximumAge", "metricCollectorProgressAlert.maximumAge",
                        TIMING, value -> SystemConfig.defaults().withAlerts(null, null, null,
                                new CollectorProgressAlertConfig(null, value, null, false))::validate),
                new Field(CollectorProgressAlertConfig.class, "pendingDuration",
                        "metricCollectorProgressAlert.pendingDuration", TIMING,
                        value -> SystemConfig.defaults().withAlerts(null, null, null,
                                new CollectorProgressAlertConfig(null, null, value, false))::validate),

                stream(StreamConfig.class, "retentionTtl", "retentionTtl", AGE,
                        value -> StreamConfig.builder().retentionTtl(value)),
                stream(StreamConfig.class, "idempotencyKeyTtl", "idempotencyKeyTtl", AGE,
                        value -> StreamConfig.builder().idempotencyKeyTtl(value)),
                stream(StreamConfig.class, "emptyCompactionHeadTtl", "emptyCompactionHeadTtl", AGE,
                        value -> StreamConfig.builder().emptyCompactionHeadTtl(value)),
                stream(StreamConfig.class, "fenceWarnAfter", "fenceWarnAfter", TIMING,
                        value -> StreamConfig.builder().fenceWarnAfter(value)),
                stream(JanitorConfig.class, "pollRate", "janitor.pollRate", TIMING,
                        value -> StreamConfig.builder().janitor(new JanitorConfig(value, null, null, null))),
                stream(JanitorConfig.class, "cleanupTimeout", "janitor.cleanupTimeout", TIMING,
                        value -> StreamConfig.builder().janitor(new JanitorConfig(null, null, value, null))),
                stream(JanitorConfig.class, "partialSweepGracePeriod", "janitor.partialSweepGracePeriod", AGE,
                        value -> StreamConfig.builder().janitor(new JanitorConfig(null, null, null, value))),
                stream(VacuumConfig.class, "pollRate", "vacuum.pollRate", TIMING,
                        value -> StreamConfig.builder().vacuum(new VacuumConfig(value, null))),
                stream(VacuumConfig.class, "vacuumTimeout", "vacuum.vacuumTimeout", TIMING,
                        value -> StreamConfig.builder().vacuum(new VacuumConfig(null, value))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fields")
    void aHugeDurationIsRefusedNamingTheFieldAndItsBound(Field field) {
        InvalidConfigurationException refused = invalid(field.validation().apply(HUGE));

        assertThat(refused.violations()).filteredOn(violation -> violation.property().equals(field.property()))
                .as("violations of %s", refused.violations())
                .anySatisfy(violation -> assertThat(violation.rule()).contains("at most " + field.bound()));
        assertThat(refused.getMessage()).contains(field.property()).contains(field.bound().toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fields")
    void oneNanosecondOverTheBoundIsRefusedAndTheBoundItselfIsNot(Field field) {
        assertThat(properties(invalid(field.validation().apply(field.bound().plusNanos(1)))))
                .contains(field.property());
        assertThat(violationsOf(field.validation().apply(field.bound()))).doesNotContain(field.property());
    }

    /** Every duration component of every record in the API is one of the bounded fields above. */
    @Test
    void everyDurationOfEveryConfigurationRecordIsBounded() throws IOException, URISyntaxException {
        Set<String> bounded = fields().map(field -> field.owner().getSimpleName() + "." + field.component())
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> durations = new TreeSet<>();
        for (Class<?> type : apiClasses()) {
            if (type.isRecord() && !STORED_ROWS.contains(type)) {
                Arrays.stream(type.getRecordComponents()).filter(component -> component.getType() == Duration.class)
                        .map(RecordComponent::getName)
                        .forEach(name -> durations.add(type.getSimpleName() + "." + name));
            }
        }

        assertThat(durations).as("the API's record durations").isNotEmpty();
        assertThat(bounded).containsExactlyElementsOf(durations);
    }

    @Test
    void aHandlersDelayIsBoundedLikeEveryTiming() {
        InvalidConfigurationException refused = invalid(() -> Outcome.delay(HUGE));

        assertThat(properties(refused)).containsExactly("delay");
        assertThat(refused.getMessage()).contains(TIMING.toString());
        assertThat(properties(invalid(() -> Outcome.delay(TIMING.plusNanos(1))))).containsExactly("delay");
        assertThat(Outcome.delay(TIMING).after()).isEqualTo(TIMING);
    }

    private static Field consume(String property, Function<Duration, ConsumeOptions.Builder> options) {
        return new Field(ConsumeOptions.class, property, property, TIMING,
                value -> options.apply(value).build()::validate);
    }

    private static Field group(Class<?> owner, String component, String property,
                               Function<Duration, ConsumerConfig.Builder> config) {
        return new Field(owner, component, property, TIMING, value -> config.apply(value).build()::validate);
    }

    private static Field producer(Class<?> owner, String component, String property,
                                  Function<Duration, ProducerConfig> config) {
        return new Field(owner, component, property, TIMING, value -> config.apply(value)::validate);
    }

    private static Field stream(Class<?> owner, String component, String property, Duration bound,
                                Function<Duration, StreamConfig.Builder> config) {
        return new Field(owner, component, property, bound, value -> config.apply(value).build()::validate);
    }

    private static MessageOptions timeout(Duration timeout) {
        return MessageOptions.builder().timeout(timeout).build();
    }

    private static MessageOptions retry(RetryPolicy.Builder retry) {
        return MessageOptions.builder().retry(retry.build()).build();
    }

    /** The property paths {@code validation} refuses, empty when it accepts. */
    private static List<String> violationsOf(Executable validation) {
        try {
            validation.execute();
            return List.of();
        } catch (InvalidConfigurationException refused) {
            return properties(refused);
        } catch (Throwable unexpected) {
            throw new AssertionError("validation threw " + unexpected, unexpected);
        }
    }

    /** Every class compiled into the API's {@code io.sqlstreams} package. */
    private static List<Class<?>> apiClasses() throws IOException, URISyntaxException {
        Path root = Path.of(Limits.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path directory = root.resolve(Limits.class.getPackageName().replace('.', '/'));
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(file -> file.getFileName().toString())
                    .filter(name -> name.endsWith(".class") && !name.contains("$"))
                    .<Class<?>>map(name -> load(Limits.class.getPackageName() + "." + name.replace(".class", "")))
                    .toList();
        }
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException missing) {
            throw new AssertionError(missing);
        }
    }
}
