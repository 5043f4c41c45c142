package io.sqlstreams.engine.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sqlstreams.Code;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.InvalidConfigurationException.Violation;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Schedule expressions: cron specs, descriptors and @every, with an optional TZ= prefix. */
class ScheduleExpressionTest {

    /** A Wednesday, off the minute. */
    private static final Instant WEDNESDAY = Instant.parse("2026-03-11T10:17:23.5Z");
    private static final String SYNTAX = "must be a 5-field cron spec, a descriptor (@hourly, @daily, @weekly,"
            + " @monthly, @yearly) or \"@every <duration>\", optionally after \"TZ=Area/City \"";

    private static ScheduleExpression parse(String expression) {
        return ScheduleExpression.parse("expression", expression, WEDNESDAY);
    }

    private static List<Instant> firstTimes(ScheduleExpression expression, Instant after, int count) {
        List<Instant> times = new ArrayList<>();
        Instant previous = after;
        for (int i = 0; i < count; i++) {
            previous = expression.first(previous).orElseThrow();
            times.add(previous);
        }
        return times;
    }

    @ParameterizedTest
    @CsvSource({
            "@hourly, 2026-03-11T11:00:00Z",
            "@daily, 2026-03-12T00:00:00Z",
            "@midnight, 2026-03-12T00:00:00Z",
            "@weekly, 2026-03-15T00:00:00Z",
            "@monthly, 2026-04-01T00:00:00Z",
            "@yearly, 2027-01-01T00:00:00Z",
            "@annually, 2027-01-01T00:00:00Z",
            "@Daily, 2026-03-12T00:00:00Z",
            "'  @HOURLY\t', 2026-03-11T11:00:00Z"})
    void descriptorsStandForTheirCronSpecs(String descriptor, Instant next) {
        ScheduleExpression expression = parse(descriptor);

        assertThat(expression.first(WEDNESDAY)).contains(next);
        assertThat(expression.text()).isEqualTo(descriptor.strip());
        assertThat(expression.zone()).isEqualTo(ZoneOffset.UTC);
    }

    @ParameterizedTest
    @CsvSource({"30 4 * * 1", "30 4 * * MON", "'  30 4 * * 1 '"})
    void aCronSpecGivesItsNextTimeInUtc(String spec) {
        ScheduleExpression mondays = parse(spec);

        assertThat(firstTimes(mondays, WEDNESDAY, 2)).containsExactly(
                Instant.parse("2026-03-16T04:30:00Z"), Instant.parse("2026-03-23T04:30:00Z"));
    }

    @Test
    void aZonePrefixReadsTheFieldsInThatZoneAcrossDaylightSavingChanges() {
        ScheduleExpression nightly = parse("TZ=America/New_York 30 1 * * *");

        assertThat(nightly.zone()).isEqualTo(ZoneId.of("America/New_York"));
        // New York falls back on 2026-11-01 and springs forward on 2026-03-08, both at 02:00 local time.
        assertThat(firstTimes(nightly, Instant.parse("2026-10-30T00:00:00Z"), 4)).containsExactly(
                Instant.parse("2026-10-30T05:30:00Z"),
                Instant.parse("2026-10-31T05:30:00Z"),
                Instant.parse("2026-11-01T05:30:00Z"),
                Instant.parse("2026-11-02T06:30:00Z"));
        assertThat(firstTimes(nightly, Instant.parse("2026-03-07T00:00:00Z"), 3)).containsExactly(
                Instant.parse("2026-03-07T06:30:00Z"),
                Instant.parse("2026-03-08T06:30:00Z"),
                Instant.parse("2026-03-09T05:30:00Z"));
    }

    @Test
    void aDailyTimeInTheRepeatedHourOfAFallBackComesDueOnce() {
        ScheduleExpression nightly = parse("TZ=America/New_York 30 1 * * *");
        Instant firstHalfPastOne = Instant.parse("2026-11-01T05:30:00Z");
        Instant nextDay = Instant.parse("2026-11-02T06:30:00Z");

        assertThat(nightly.following(firstHalfPastOne, firstHalfPastOne)).contains(nextDay);
        assertThat(nightly.following(firstHalfPastOne, firstHalfPastOne.plusSeconds(2))).contains(nextDay);
        assertThat(nightly.following(firstHalfPastOne, Instant.parse("2026-11-01T06:10:00Z"))).contains(nextDay);
    }

    @Test
    void withoutAPrefixTheFieldsAreReadInUtc() {
        ScheduleExpression berlin = parse("TZ=Europe/Berlin 0 12 * * *");
        ScheduleExpression utc = parse("0 12 * * *");

        assertThat(berlin.first(WEDNESDAY)).contains(Instant.parse("2026-03-11T11:00:00Z"));
        assertThat(utc.first(WEDNESDAY)).contains(Instant.parse("2026-03-11T12:00:00Z"));
    }

    @ParameterizedTest
    @CsvSource({"@every 90m", "@every 1h30m", "@EVERY   PT90M"})
    void everyIsArithmeticFromTheDueTime(String spec) {
        ScheduleExpression every = parse(spec);
        Instant due = Instant.parse("2026-03-11T10:17:23.5Z");
        Duration interval = Duration.ofMinutes(90);

        assertThat(every.first(WEDNESDAY)).contains(WEDNESDAY.plus(interval));
        assertThat(every.newestDue(due, due)).contains(due);
        assertThat(every.newestDue(due, due.plus(Duration.ofHours(4)))).contains(due.plus(interval.multipliedBy(2)));
        assertThat(every.newestDue(due, due.plus(Duration.ofHours(3)))).contains(due.plus(interval.multipliedBy(2)));
        assertThat(every.following(due, due.plus(Duration.ofHours(4)))).contains(due.plus(interval.multipliedBy(3)));
        assertThat(every.following(due, due.plus(Duration.ofHours(3)))).contains(due.plus(interval.multipliedBy(3)));
        assertThat(every.following(due, due)).contains(due.plus(interval));
        assertThat(every.following(due, due.minusSeconds(1))).contains(due);
    }

    @Test
    void everyHoursCountsWholeIntervalsAfterALongDowntime() {
        ScheduleExpression every = parse("@every 2h");
        Instant due = Instant.parse("2026-03-01T00:00:00Z");
        Instant now = Instant.parse("2026-03-31T23:59:59Z");

        assertThat(every.newestDue(due, now)).contains(Instant.parse("2026-03-31T22:00:00Z"));
        assertThat(every.following(due, now)).contains(Instant.parse("2026-04-01T00:00:00Z"));
    }

    /** Three days after the due time, so no minute-by-minute walk. */
    @ParameterizedTest
    @CsvSource({
            "2026-03-11T10:17:59.999999999Z, 2026-03-11T10:17:00Z",
            "2026-03-11T10:17:00Z, 2026-03-11T10:17:00Z",
            "2026-03-11T10:17:00.000000001Z, 2026-03-11T10:17:00Z",
            "2026-03-08T10:00:00Z, 2026-03-08T10:00:00Z"})
    void newestDueAfterADowntimeIsTheNewestMinuteUpToNow(Instant now, Instant newest) {
        ScheduleExpression everyMinute = parse("* * * * *");

        assertThat(everyMinute.newestDue(Instant.parse("2026-03-08T10:00:00Z"), now)).contains(newest);
    }

    @Test
    void newestDueOfACronSpecIsItsNewestTimeNotBeforeTheDueTime() {
        ScheduleExpression nightly = parse("TZ=Asia/Kolkata 0 0 * * *");
        Instant due = Instant.parse("2026-03-10T18:30:00Z");

        assertThat(nightly.newestDue(due, Instant.parse("2026-03-11T12:00:00Z"))).contains(due);
        assertThat(nightly.newestDue(due, Instant.parse("2026-03-13T18:30:00Z")))
                .contains(Instant.parse("2026-03-13T18:30:00Z"));
        assertThat(nightly.newestDue(due.plusSeconds(1), Instant.parse("2026-03-11T12:00:00Z"))).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"* * * * *", "@every 90m"})
    void newestDueIsEmptyWhenTheDueTimeIsStillAhead(String spec) {
        ScheduleExpression expression = parse(spec);

        assertThat(expression.newestDue(WEDNESDAY.plusSeconds(60), WEDNESDAY)).isEmpty();
        assertThat(expression.newestDue(WEDNESDAY.plusNanos(1), WEDNESDAY)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({
            "2026-03-11T10:15:00Z, 2026-03-11T10:30:00Z",
            "2026-03-11T10:14:59.999Z, 2026-03-11T10:15:00Z",
            "2026-03-11T10:29:59Z, 2026-03-11T10:30:00Z"})
    void followingAndFirstAreStrictlyAfterNow(Instant now, Instant next) {
        ScheduleExpression quarterly = parse("*/15 * * * *");

        assertThat(quarterly.following(Instant.parse("2026-03-11T09:00:00Z"), now)).contains(next);
        assertThat(quarterly.first(now)).contains(next);
    }

    @Test
    void aTimeBeyondTheCheckedWindowStillCountsAsUpcoming() {
        // February 29 comes next in 2028, well beyond the 400 days whose gaps are checked.
        ScheduleExpression leapDay = parse("0 0 29 2 *");

        assertThat(leapDay.first(WEDNESDAY)).contains(Instant.parse("2028-02-29T00:00:00Z"));
    }

    @ParameterizedTest
    @CsvSource({"@yearly", "0 0 1 1 *", "* * * * *", "TZ=Europe/Berlin * * * * *", "@every 1m"})
    void frequentAndRareSchedulesPassTheGapCheck(String spec) {
        assertThat(parse(spec).text()).isEqualTo(spec);
    }

    static Stream<Arguments> invalidExpressions() {
        return Stream.of(
                Arguments.of("@every 30s", "has times only 30s apart; schedules need at least 1 minute between times"),
                Arguments.of("@every 59.999s", "has times only 59.999s apart"),
                Arguments.of("@every 0s", "needs a positive @every duration, not 0s"),
                Arguments.of("@every -5m", "needs a positive @every duration, not -5m0s"),
                Arguments.of("@every", SYNTAX + ": @every must be a duration"),
                Arguments.of("@every soon", SYNTAX + ": @every must be a duration"),
                Arguments.of("61 * * * *", SYNTAX + ": Value 61 not in range [0, 59]"),
                Arguments.of("TZ=Nowhere/City * * * * *", "names an unknown time zone \"Nowhere/City\""),
                Arguments.of("0 0 30 2 *", "has no upcoming time"),
                Arguments.of("@reboot", SYNTAX + ": @reboot is not a descriptor"),
                Arguments.of("@daily 5", SYNTAX + ": @daily 5 is not a descriptor"),
                Arguments.of("* * * * * *", SYNTAX + ": "),
                Arguments.of("", SYNTAX),
                Arguments.of("  ", SYNTAX),
                Arguments.of(null, SYNTAX),
                Arguments.of("TZ=Europe/Berlin", SYNTAX + ": nothing follows the time zone"),
                Arguments.of("TZ=Europe/Berlin  ", SYNTAX + ": nothing follows the time zone"));
    }

    @ParameterizedTest
    @MethodSource("invalidExpressions")
    void invalidExpressionsAreSql0108NamingPropertyAndExpression(String expression, String rule) {
        String property = "sqlstreams.schedules.\"nightly\".expression";

        InvalidConfigurationException thrown = assertThrows(InvalidConfigurationException.class,
                () -> ScheduleExpression.parse(property, expression, WEDNESDAY));

        assertThat(thrown.getClass()).isEqualTo(InvalidConfigurationException.class);
        assertThat(thrown.code()).isEqualTo(Code.SQL0108);
        assertThat(thrown.violations()).hasSize(1);
        Violation violation = thrown.violations().get(0);
        assertThat(violation.property()).isEqualTo(property);
        assertThat(violation.value()).isEqualTo(expression);
        assertThat(violation.rule()).startsWith(rule);
    }

    @Test
    void expressionsAreEqualByTheirText() {
        ScheduleExpression berlin = parse(" TZ=Europe/Berlin 30 4 * * 1 ");

        assertThat(berlin.text()).isEqualTo("TZ=Europe/Berlin 30 4 * * 1");
        assertThat(berlin).hasToString("TZ=Europe/Berlin 30 4 * * 1");
        assertThat(berlin).isEqualTo(parse("TZ=Europe/Berlin 30 4 * * 1")).hasSameHashCodeAs(
                parse("TZ=Europe/Berlin 30 4 * * 1"));
        assertThat(berlin).isNotEqualTo(parse("TZ=Europe/Berlin 30 4 * * MON")).isNotEqualTo(parse("30 4 * * 1"));
    }
}
