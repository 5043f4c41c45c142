package io.sqlstreams.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.testing.PostgresTest;

/**
 * Issue 13 §6.5, the group side: declarations that once reached PostgreSQL (a NUL in a binding pattern, SQL0111),
 * threw an uncoded NullPointerException (a null pattern, a null payload type) or were accepted silently (a floor
 * above its ceiling) are refused with a code, and nothing of the group is written.
 */
@PostgresTest
class GroupInputsTest extends GroupTestBase {

    /** Registers {@code register}, which must fail with {@code code} and write nothing; returns the failure. */
    private SqlStreamsException refusedWithoutWriting(Code code, ThrowingCallable register) throws SQLException {
        List<Long> footprint = probe.groupFootprint();
        Throwable thrown = catchThrowable(register);
        assertThat(thrown).isInstanceOf(SqlStreamsException.class);
        assertThat(((SqlStreamsException) thrown).code()).as("code of %s", thrown).isEqualTo(code);
        assertThat(probe.groupFootprint()).as("group rows, worker rows and snapshots").isEqualTo(footprint);
        return (SqlStreamsException) thrown;
    }

    private static List<String> properties(SqlStreamsException refused) {
        return ((InvalidConfigurationException) refused).violations().stream()
                .map(InvalidConfigurationException.Violation::property).toList();
    }

    @Test
    void aBindingPatternWithANulIsRefusedUpFront() throws SQLException {
        StreamHandle<Numbered> stream = registeredStream("inputs.nul.pattern");

        SqlStreamsException refused = refusedWithoutWriting(Code.SQL0108, () -> stream.consumer("nul")
                .register(ConsumerConfig.builder().bindings(List.of("orders.*", "eu\u0000.*")).build()));

        assertThat(properties(refused)).containsExactly("bindings[1]");
        assertThat(stream.consumer("nul").get()).isEmpty();
    }

    @Test
    void aNullBindingPatternIsRefusedWithACode() throws SQLException {
        StreamHandle<Numbered> stream = registeredStream("inputs.null.pattern");

        SqlStreamsException refused = refusedWithoutWriting(Code.SQL0108, () -> stream.consumer("nulls")
                .register(ConsumerConfig.builder().bindings(Arrays.asList("orders.*", null)).build()));

        assertThat(properties(refused)).containsExactly("bindings[1]");
    }

    @Test
    void aFloorAboveItsCeilingIsRefused() throws SQLException {
        StreamHandle<Numbered> stream = registeredStream("inputs.floor");

        SqlStreamsException refused = refusedWithoutWriting(Code.SQL0108, () -> stream.consumer("floor")
                .register(ConsumerConfig.builder()
                        .messageMin(MessageOptions.builder().timeout(Duration.ofSeconds(60)).build())
                        .messageMax(MessageOptions.builder().timeout(Duration.ofSeconds(10)).build())
                        .build()));

        assertThat(properties(refused)).containsExactly("messageMin.timeout");
        assertThat(refused.getMessage()).contains("messageMax.timeout");
    }

    @Test
    void aNullPayloadTypeIsRefusedAsInvalidConfiguration() throws SQLException {
        registeredStream("inputs.null.type");

        SqlStreamsException refused = refusedWithoutWriting(Code.SQL0108,
                () -> client.stream("inputs.null.type", null).consumer("untyped").register());

        assertThat(properties(refused)).containsExactly("payloadType");
    }
}
