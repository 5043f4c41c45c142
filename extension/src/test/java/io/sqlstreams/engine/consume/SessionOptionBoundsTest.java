package io.sqlstreams.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.Limits;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.engine.consume.SessionTestKit.Ledger;
import io.sqlstreams.engine.consume.SessionTestKit.Rig;
import io.sqlstreams.engine.consume.SessionTestKit.Work;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;

/**
 * Issue 13 §6.4: a session option of {@code Duration.ofSeconds(Long.MAX_VALUE)} once threw an uncoded
 * ArithmeticException after worker_instance_log rows were written, some leaving live worker_instance rows. Each
 * is refused with SQL0108 naming it and its bound before anything is written.
 */
@PostgresTest
class SessionOptionBoundsTest {
    private static final String GROUP = "bounds";
    private static final Duration HUGE = Duration.ofSeconds(Long.MAX_VALUE);
    /** How long a refusal may take before the test counts the call as running. */
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final Ledger ledger = new Ledger();
    private Rig rig;
    private Sql sql;

    @BeforeEach
    void setUp(TestDatabase database) {
        rig = SessionTestKit.rig(database, "bounds");
        sql = new Sql(database);
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    /** One duration option, named as its violation names it, and how to set it. */
    record Option(String name, Function<Duration, ConsumeOptions.Builder> set) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Option> durations() {
        return Stream.of(
                new Option("claimPollRate", value -> ConsumeOptions.builder().claimPollRate(value)),
                new Option("queueMargin", value -> ConsumeOptions.builder().queueMargin(value)),
                new Option("recordMargin", value -> ConsumeOptions.builder().recordMargin(value)),
                new Option("timeoutGrace", value -> ConsumeOptions.builder().timeoutGrace(value)),
                new Option("slowDispatchThreshold", value -> ConsumeOptions.builder().slowDispatchThreshold(value)),
                new Option("instanceTtl", value -> ConsumeOptions.builder().instanceTtl(value)),
                new Option("bindingRetryInterval", value -> ConsumeOptions.builder().bindingRetryInterval(value)),
                new Option("configRefreshInterval", value -> ConsumeOptions.builder().configRefreshInterval(value)),
                new Option("shutdownTimeout", value -> ConsumeOptions.builder().shutdownTimeout(value)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("durations")
    void aHugeDurationIsRefusedNamingItBeforeAnyInstanceRowIsWritten(Option option) throws Exception {
        ConsumerInstance<Numbered> instance = rig.register(GROUP, ConsumerConfig.defaults());
        MessageHandler<Numbered> handler = ledger.handler("huge", Work.SUCCEED);
        ConsumeOptions huge = option.set().apply(HUGE).build();
        long logRows = instanceLogRows();

        for (Throwable refused : List.of(startRefusal(instance, handler, huge),
                consumeRefusal(instance, handler, huge))) {
            assertThat(refused).isInstanceOf(InvalidConfigurationException.class);
            InvalidConfigurationException invalid = (InvalidConfigurationException) refused;
            assertThat(invalid.code()).isEqualTo(Code.SQL0108);
            assertThat(invalid.violations()).extracting(InvalidConfigurationException.Violation::property)
                    .containsExactly(option.name());
            assertThat(invalid.getMessage()).contains(option.name()).contains(Limits.LONGEST_TIMING.toString());
        }
        assertThat(rig.instanceRows(GROUP)).as("worker_instance rows").isZero();
        assertThat(instanceLogRows()).as("worker_instance_log rows").isEqualTo(logRows);
        assertThat(rig.start(instance, handler, option.set().apply(Limits.LONGEST_TIMING).build()).isRunning())
                .as("the bound itself is a valid %s", option.name()).isTrue();
    }

    /** What {@code start} threw; a session it started after all is closed, so that the next test starts clean. */
    private static Throwable startRefusal(ConsumerInstance<Numbered> instance, MessageHandler<Numbered> handler,
                                          ConsumeOptions options) {
        ConsumerSession[] started = new ConsumerSession[1];
        Throwable refused = catchThrowable(() -> started[0] = instance.start(handler, options));
        if (started[0] != null) {
            started[0].close();
        }
        return refused;
    }

    /** What the blocking {@code consume} threw; one that runs instead of refusing is stopped and fails the test. */
    private static Throwable consumeRefusal(ConsumerInstance<Numbered> instance, MessageHandler<Numbered> handler,
                                            ConsumeOptions options) throws InterruptedException {
        CompletableFuture<Throwable> consuming = CompletableFuture.supplyAsync(
                () -> catchThrowable(() -> instance.consume(handler, options)));
        try {
            return consuming.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException running) {
            instance.stop();
            throw new AssertionError("consume ran with " + options + " instead of refusing it");
        } catch (ExecutionException impossible) {
            throw new AssertionError(impossible.getCause());
        }
    }

    private long instanceLogRows() throws SQLException {
        return sql.count("SELECT count(*) FROM {s}.worker_instance_log");
    }
}
