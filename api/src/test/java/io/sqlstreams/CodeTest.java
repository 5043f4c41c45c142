package io.sqlstreams;

import static org.assertj.core.api.Assertions.assertThat;

import io.sqlstreams.Code.Kind;
import io.sqlstreams.Code.Recovery;
import java.lang.System.Logger.Level;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class CodeTest {

    private static List<Code> ofKind(Kind kind) {
        return Arrays.stream(Code.values()).filter(c -> c.kind() == kind).toList();
    }

    private static Set<Integer> numbers(int... values) {
        return Arrays.stream(values).boxed().collect(Collectors.toSet());
    }

    private static Set<Integer> range(int first, int last) {
        return IntStream.rangeClosed(first, last).boxed().collect(Collectors.toSet());
    }

    @Test
    void constantsAreSql0001ToSql0164InOrder() {
        Code[] codes = Code.values();
        assertThat(codes).hasSize(164);
        for (int i = 0; i < codes.length; i++) {
            String expected = String.format("SQL%04d", i + 1);
            assertThat(codes[i].name()).isEqualTo(expected);
            assertThat(codes[i].id()).isEqualTo(expected);
            assertThat(codes[i].number()).isEqualTo(i + 1);
        }
    }

    @Test
    void everyCodeHasTextAndMeaningsAreDistinct() {
        for (Code code : Code.values()) {
            assertThat(code.title()).as(code.id()).isNotBlank();
            assertThat(code.meaning()).as(code.id()).isNotBlank();
            assertThat(code.action()).as(code.id()).isNotBlank();
        }
        assertThat(Arrays.stream(Code.values()).map(Code::meaning)).doesNotHaveDuplicates();
        assertThat(Arrays.stream(Code.values()).map(Code::title)).doesNotHaveDuplicates();
    }

    @Test
    void kindsFollowTheReferenceCatalogue() {
        Set<Integer> errors = range(1, 25);
        errors.addAll(range(53, 56));
        errors.addAll(numbers(64, 66, 97, 106, 107, 108, 109, 110, 111, 112, 113));
        errors.addAll(range(132, 138));
        errors.addAll(numbers(145, 152, 153, 156, 157, 158, 159, 164));
        Set<Integer> metrics = range(42, 51);
        metrics.addAll(range(67, 93));
        metrics.addAll(range(98, 100));
        metrics.addAll(range(102, 103));
        metrics.addAll(numbers(155, 161));
        Set<Integer> alerts = numbers(94, 95, 96, 101, 162);

        for (Code code : Code.values()) {
            int n = code.number();
            Kind expected = errors.contains(n) ? Kind.ERROR
                    : metrics.contains(n) ? Kind.METRIC
                    : alerts.contains(n) ? Kind.ALERT
                    : Kind.EVENT;
            assertThat(code.kind()).as(code.id()).isEqualTo(expected);
        }
        assertThat(ofKind(Kind.EVENT)).hasSize(60);
    }

    @Test
    void errorsAreLoggedAtErrorAndCarryARetryVerdict() {
        for (Code code : ofKind(Kind.ERROR)) {
            assertThat(code.level()).as(code.id()).isEqualTo(Level.ERROR);
            assertThat(code.recovery()).as(code.id()).isIn(Recovery.TRANSIENT, Recovery.PERMANENT);
            assertThat(code.title()).as(code.id()).matches("[A-Z][A-Za-z]*");
        }
    }

    @Test
    void nonErrorsHaveNoRecovery() {
        Arrays.stream(Code.values())
                .filter(c -> c.kind() != Kind.ERROR)
                .forEach(c -> {
                    assertThat(c.recovery()).as(c.id()).isEqualTo(Recovery.NONE);
                    assertThat(c.isTransient()).as(c.id()).isFalse();
                });
    }

    @Test
    void transientCodesAreExactlyTheRetryableErrors() {
        Set<Code> transients = Arrays.stream(Code.values())
                .filter(Code::isTransient)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(Code.class)));
        assertThat(transients).containsExactlyInAnyOrder(
                Code.SQL0018, Code.SQL0021, Code.SQL0024, Code.SQL0025, Code.SQL0053, Code.SQL0054,
                Code.SQL0110);
        assertThat(Code.SQL0055.recovery()).isEqualTo(Recovery.PERMANENT);
    }

    @Test
    void metricsAreNeverLoggedAndUseLibraryNames() {
        List<Code> metrics = ofKind(Kind.METRIC);
        assertThat(metrics).hasSize(44);
        for (Code code : metrics) {
            assertThat(code.level()).as(code.id()).isEqualTo(Level.OFF);
            assertThat(code.title()).as(code.id()).startsWith("sqlstreams.");
        }
        Arrays.stream(Code.values())
                .filter(c -> c.kind() != Kind.METRIC)
                .forEach(c -> {
                    assertThat(c.level()).as(c.id()).isNotEqualTo(Level.OFF);
                    assertThat(c.title()).as(c.id()).doesNotStartWith("sqlstreams.");
                });
    }

    @Test
    void eventsAndAlertsUseOperatorLevels() {
        Arrays.stream(Code.values())
                .filter(c -> c.kind() == Kind.ALERT)
                .forEach(c -> assertThat(c.level()).as(c.id()).isIn(Level.INFO, Level.WARNING, Level.ERROR));
        Arrays.stream(Code.values())
                .filter(c -> c.kind() == Kind.EVENT)
                .forEach(c -> assertThat(c.level()).as(c.id())
                        .isIn(Level.DEBUG, Level.INFO, Level.WARNING, Level.ERROR));
        assertThat(Arrays.stream(Code.values()).filter(c -> c.level() == Level.DEBUG))
                .as("the debug events").containsExactly(Code.SQL0129, Code.SQL0130);
        for (Code alert : ofKind(Kind.ALERT)) {
            assertThat(alert.level()).as(alert.id()).isEqualTo(Level.WARNING);
            assertThat(alert.title()).as(alert.id()).matches("[a-z]+(_[a-z]+)*");
        }
    }

    @Test
    void spotChecksAgainstTheReference() {
        assertThat(Code.SQL0059.kind()).isEqualTo(Kind.EVENT);
        assertThat(Code.SQL0059.level()).isEqualTo(Level.WARNING);
        assertThat(Code.SQL0041.kind()).isEqualTo(Kind.EVENT);
        assertThat(Code.SQL0041.level()).isEqualTo(Level.INFO);
        assertThat(Code.SQL0036.kind()).isEqualTo(Kind.EVENT);
        assertThat(Code.SQL0036.level()).isEqualTo(Level.ERROR);
        assertThat(Code.SQL0065.kind()).isEqualTo(Kind.EVENT);
        assertThat(Code.SQL0065.level()).isEqualTo(Level.ERROR);
        assertThat(Code.SQL0094.kind()).isEqualTo(Kind.ALERT);
        assertThat(Code.SQL0094.title()).isEqualTo("partition_count");
        assertThat(Code.SQL0096.title()).isEqualTo("worker_liveness");
        assertThat(Code.SQL0101.title()).isEqualTo("metrics_collector_progress");
        assertThat(Code.SQL0162.title()).isEqualTo("fence_held");
        assertThat(Code.SQL0042.title()).isEqualTo("sqlstreams.consumer.session.claimed");
        assertThat(Code.SQL0093.title()).isEqualTo("sqlstreams.consumer.abandoned_routines.self_clear_latency_avg");
        assertThat(Code.SQL0103.title()).isEqualTo("sqlstreams.otel.measurements.rejected");
        assertThat(Code.SQL0005.title()).isEqualTo("StreamNotFound");
        assertThat(Code.SQL0015.title()).isEqualTo("ConsumerGroupLive");
        assertThat(Code.SQL0003.title()).isEqualTo("LeaseLost");
        assertThat(Code.SQL0108.title()).isEqualTo("InvalidConfiguration");
        assertThat(Code.SQL0109.title()).isEqualTo("InvalidName");
        assertThat(Code.SQL0115.title()).isEqualTo("ConsumerStarting");
        assertThat(Code.SQL0115.level()).isEqualTo(Level.INFO);
        assertThat(Code.SQL0132.title()).isEqualTo("TransactionRequired");
        assertThat(Code.SQL0138.title()).isEqualTo("ServerResourceMissing");
        assertThat(Code.SQL0139.title()).isEqualTo("MaintenanceStepFailed");
        assertThat(Code.SQL0139.level()).isEqualTo(Level.WARNING);
        assertThat(Code.SQL0140.title()).isEqualTo("WorkerStarted");
        assertThat(Code.SQL0140.level()).isEqualTo(Level.INFO);
        assertThat(Code.SQL0141.title()).isEqualTo("WorkerStartFailed");
        assertThat(Code.SQL0141.level()).isEqualTo(Level.WARNING);
        assertThat(Code.SQL0142.title()).isEqualTo("WakeupUnavailable");
        assertThat(Code.SQL0143.title()).isEqualTo("WakeupListenerLost");
        assertThat(Code.SQL0144.title()).isEqualTo("WakeupListenerRestored");
        assertThat(Code.SQL0144.level()).isEqualTo(Level.INFO);
        assertThat(Code.SQL0145.title()).isEqualTo("InvalidMeasurement");
        assertThat(Code.SQL0145.recovery()).isEqualTo(Code.Recovery.PERMANENT);
        assertThat(Code.SQL0146.title()).isEqualTo("SessionCountersNotRecorded");
        assertThat(Code.SQL0146.level()).isEqualTo(Level.WARNING);
    }

    @ParameterizedTest
    @ValueSource(strings = {"SQL0059", "sql0059", "0059", "59", "  SQL0059 ", "Sql0059", "\t59\n"})
    void findAcceptsEverySpelling(String text) {
        assertThat(Code.find(text)).contains(Code.SQL0059);
    }

    @Test
    void findRoundTripsEveryCode() {
        for (Code code : Code.values()) {
            assertThat(Code.find(code.id())).contains(code);
            assertThat(Code.find(code.id().toLowerCase(Locale.ROOT))).contains(code);
            assertThat(Code.find(code.id().substring(3))).contains(code);
            assertThat(Code.find(Integer.toString(code.number()))).contains(code);
        }
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"SQL0000", "SQL0165", "0", "165", "abc", "SQL00591", "00059", "SQL", "SQL 0059",
        "SQL-0059", "-59", "+59", "SQLX059", "   "})
    void findRejectsAnythingElse(String text) {
        assertThat(Code.find(text)).isEmpty();
    }
}
