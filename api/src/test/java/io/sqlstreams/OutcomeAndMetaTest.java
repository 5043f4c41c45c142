package io.sqlstreams;

import static io.sqlstreams.ConfigAssertions.invalid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Handler outcomes (SQL0054 / SQL0055) and the thread-bound MessageMeta. */
class OutcomeAndMetaTest {

    private static MessageMeta meta(long id) {
        return new MessageMeta("orders.created", "billing", id, "orders.eu", "order-" + id, null,
                Instant.parse("2026-01-01T00:00:00Z"), 1, 0, ConsumerConfig.defaults().resolve(null), null);
    }

    @Nested
    class Outcomes {

        @Test
        void terminalFromACauseIsPermanentSql0055() {
            IllegalArgumentException cause = new IllegalArgumentException("card number malformed");

            Outcome.Terminal terminal = Outcome.terminal(cause);

            assertThat(terminal.code()).isEqualTo(Code.SQL0055);
            assertThat(terminal.isTransient()).isFalse();
            assertThat(terminal.getCause()).isSameAs(cause);
            assertThat(terminal.getMessage()).startsWith("SQL0055 ").contains("card number malformed");
            assertThat(terminal).isInstanceOf(Outcome.class).isInstanceOf(SqlStreamsException.class);
        }

        @Test
        void terminalFromAReasonIsPermanentSql0055() {
            Outcome.Terminal terminal = Outcome.terminal("unknown customer");

            assertThat(terminal.code()).isEqualTo(Code.SQL0055);
            assertThat(terminal.isTransient()).isFalse();
            assertThat(terminal.getCause()).isNull();
            assertThat(terminal.getMessage()).contains("unknown customer");
        }

        @Test
        void terminalNeedsACauseOrReason() {
            assertThatThrownBy(() -> Outcome.terminal((Throwable) null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> Outcome.terminal((String) null)).isInstanceOf(NullPointerException.class);
        }

        @Test
        void delayIsTransientSql0054CarryingItsDuration() {
            Outcome.Delay delay = Outcome.delay(Duration.ofSeconds(90));

            assertThat(delay.code()).isEqualTo(Code.SQL0054);
            assertThat(delay.isTransient()).isTrue();
            assertThat(delay.after()).isEqualTo(Duration.ofSeconds(90));
            assertThat(delay.getMessage()).startsWith("SQL0054 ");
        }

        @Test
        void smallestPositiveDelayIsAccepted() {
            assertThat(Outcome.delay(Duration.ofNanos(1)).after()).isEqualTo(Duration.ofNanos(1));
        }

        @ParameterizedTest(name = "delay of {0} ms rejected")
        @ValueSource(longs = {0, -1, -60_000})
        void nonPositiveDelayIsRejected(long millis) {
            InvalidConfigurationException thrown = invalid(() -> Outcome.delay(Duration.ofMillis(millis)));

            assertThat(ConfigAssertions.properties(thrown)).containsExactly("delay");
        }

        @Test
        void nullDelayIsRejected() {
            InvalidConfigurationException thrown = invalid(() -> Outcome.delay(null));

            assertThat(ConfigAssertions.properties(thrown)).containsExactly("delay");
        }
    }

    @Nested
    class Meta {

        @AfterEach
        void nothingLeaksOutOfATest() {
            assertThat(MessageMeta.find()).isEmpty();
        }

        @Test
        void currentOutsideAHandlerThrows() {
            assertThatThrownBy(MessageMeta::current).isInstanceOf(IllegalStateException.class);
            assertThat(MessageMeta.find()).isEmpty();
        }

        @Test
        void currentInsideCallWithIsTheGivenMeta() throws Exception {
            MessageMeta meta = meta(7);

            MessageMeta seen = MessageMeta.callWith(meta, MessageMeta::current);

            assertThat(seen).isSameAs(meta);
            assertThat(seen.options().concurrency()).isEqualTo(Concurrency.PARALLEL);
            assertThatThrownBy(MessageMeta::current).isInstanceOf(IllegalStateException.class);
        }

        @Test
        void insideABatchCallNoDeliveryIsCurrentAndTheOuterOneComesBack() throws Exception {
            MessageMeta outer = meta(1);
            List<Object> seen = new ArrayList<>();

            MessageMeta.callWith(outer, () -> {
                MessageMeta.callForBatch(() -> {
                    seen.add(MessageMeta.find());
                    assertThatThrownBy(MessageMeta::current).isInstanceOf(IllegalStateException.class)
                            .hasMessageContaining("BatchHandler").hasMessageContaining("BatchItem's meta()");
                    return seen.add(MessageMeta.callWith(meta(2), MessageMeta::current).messageId());
                });
                return seen.add(MessageMeta.current());
            });

            assertThat(seen).containsExactly(Optional.empty(), 2L, outer);
        }

        @Test
        void callWithReturnsTheActionsResult() throws Exception {
            assertThat(MessageMeta.callWith(meta(1), () -> "done")).isEqualTo("done");
        }

        @Test
        void nestedCallsRestoreThePreviousMeta() throws Exception {
            MessageMeta outer = meta(1);
            MessageMeta inner = meta(2);
            List<Long> seen = new ArrayList<>();

            MessageMeta.callWith(outer, () -> {
                seen.add(MessageMeta.current().messageId());
                MessageMeta.callWith(inner, () -> seen.add(MessageMeta.current().messageId()));
                seen.add(MessageMeta.current().messageId());
                return null;
            });

            assertThat(seen).containsExactly(1L, 2L, 1L);
        }

        @Test
        void nestedCallThatThrowsStillRestoresTheOuterMeta() throws Exception {
            MessageMeta outer = meta(1);

            long after = MessageMeta.callWith(outer, () -> {
                assertThatThrownBy(() -> MessageMeta.callWith(meta(2), () -> {
                    throw new IllegalStateException("boom");
                })).hasMessage("boom");
                return MessageMeta.current().messageId();
            });

            assertThat(after).isEqualTo(1L);
        }

        @Test
        void clearedAfterTheActionThrows() {
            Exception failure = new Exception("handler failed");

            assertThatThrownBy(() -> MessageMeta.callWith(meta(3), () -> {
                throw failure;
            })).isSameAs(failure);

            assertThatThrownBy(MessageMeta::current).isInstanceOf(IllegalStateException.class);
        }

        @Test
        void clearedAfterAnOutcomeIsThrown() {
            assertThatThrownBy(() -> MessageMeta.callWith(meta(4), () -> {
                throw Outcome.delay(Duration.ofSeconds(1));
            })).isInstanceOf(Outcome.Delay.class);

            assertThat(MessageMeta.find()).isEmpty();
        }

        @Test
        void metaIsBoundToTheCallingThreadOnly() throws Exception {
            ExecutorService other = Executors.newSingleThreadExecutor();
            try {
                boolean visibleElsewhere = MessageMeta.callWith(meta(5), () -> {
                    Future<Boolean> seen = other.submit(() -> MessageMeta.find().isPresent());
                    return seen.get(5, TimeUnit.SECONDS);
                });
                assertThat(visibleElsewhere).isFalse();
            } finally {
                other.shutdownNow();
            }
        }
    }
}
