package io.sqlstreams.engine.schedule;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.InvalidConfigurationException.Violation;
import io.sqlstreams.engine.codec.DurationText;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The time expression of a schedule: a 5-field UNIX cron spec, a descriptor such as {@code @daily}, or
 * {@code @every <duration>}, optionally after {@code TZ=Area/City } naming the zone the cron fields are
 * read in (UTC without it). cron-utils parses the cron fields and computes their next and previous times;
 * this class adds the descriptors, {@code @every}, the zone prefix and the check that times lie at least
 * {@link #SHORTEST_GAP} apart.
 */
public final class ScheduleExpression {

    /** The producer's resolution: consecutive times of a schedule lie at least this far apart. */
    public static final Duration SHORTEST_GAP = Duration.ofMinutes(1);

    private static final String SYNTAX = "must be a 5-field cron spec, a descriptor (@hourly, @daily, @weekly,"
            + " @monthly, @yearly) or \"@every <duration>\", optionally after \"TZ=Area/City \"";
    private static final String ZONE_PREFIX = "TZ=";
    private static final String EVERY = "@every";
    private static final Map<String, String> DESCRIPTORS = Map.of(
            "@hourly", "0 * * * *",
            "@daily", "0 0 * * *",
            "@midnight", "0 0 * * *",
            "@weekly", "0 0 * * 0",
            "@monthly", "0 0 1 * *",
            "@yearly", "0 0 1 1 *",
            "@annually", "0 0 1 1 *");
    private static final CronParser UNIX_CRON =
            new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    private static final int CHECKED_TIMES = 1_000;
    private static final Duration CHECKED_SPAN = Duration.ofDays(400);

    private final String text;
    private final ZoneId zone;
    private final Series series;

    private ScheduleExpression(String text, ZoneId zone, Series series) {
        this.text = text;
        this.zone = zone;
        this.series = series;
    }

    /**
     * Parses and checks {@code expression} as of {@code from}; SQL0108 naming {@code property} when it is not a
     * valid schedule.
     */
    public static ScheduleExpression parse(String property, String expression, Instant from) {
        Refusal invalid = new Refusal(property, expression);
        if (expression == null || expression.isBlank()) {
            throw invalid.because(SYNTAX);
        }
        String text = expression.strip();
        String spec = text;
        ZoneId zone = ZoneOffset.UTC;
        if (text.startsWith(ZONE_PREFIX)) {
            String[] zoneAndSpec = text.substring(ZONE_PREFIX.length()).split("\\s+", 2);
            if (zoneAndSpec.length < 2) {
                throw invalid.because(SYNTAX + ": nothing follows the time zone");
            }
            zone = zoneNamed(zoneAndSpec[0], invalid);
            spec = zoneAndSpec[1];
        }
        Series series = spec.startsWith("@") ? descriptor(spec, zone, invalid) : cron(spec, zone, invalid);
        series.check(from, invalid);
        return new ScheduleExpression(text, zone, series);
    }

    private static ZoneId zoneNamed(String name, Refusal invalid) {
        try {
            return ZoneId.of(name);
        } catch (DateTimeException unknown) {
            throw invalid.because("names an unknown time zone \"" + name + "\"");
        }
    }

    private static Series descriptor(String spec, ZoneId zone, Refusal invalid) {
        String[] nameAndArgument = spec.split("\\s+", 2);
        String name = nameAndArgument[0].toLowerCase(Locale.ROOT);
        if (name.equals(EVERY)) {
            return every(nameAndArgument.length == 2 ? nameAndArgument[1] : "", invalid);
        }
        String cron = DESCRIPTORS.get(name);
        if (cron == null || nameAndArgument.length > 1) {
            throw invalid.because(SYNTAX + ": " + spec + " is not a descriptor");
        }
        return cron(cron, zone, invalid);
    }

    private static Series every(String duration, Refusal invalid) {
        Duration interval;
        try {
            interval = DurationText.parse(invalid.property(), duration);
        } catch (InvalidConfigurationException unreadable) {
            throw invalid.because(SYNTAX + ": " + EVERY + " " + unreadable.violations().get(0).rule());
        }
        if (interval.isNegative() || interval.isZero()) {
            throw invalid.because("needs a positive " + EVERY + " duration, not " + DurationText.format(interval));
        }
        return new Every(interval);
    }

    private static Series cron(String spec, ZoneId zone, Refusal invalid) {
        try {
            return new Cron(ExecutionTime.forCron(UNIX_CRON.parse(spec).validate()), zone);
        } catch (RuntimeException refused) {
            String reason = refused.getMessage() == null ? ""
                    : ": " + refused.getMessage().replaceFirst("^Failed to parse cron expression\\. ", "");
            throw invalid.because(SYNTAX + reason);
        }
    }

    /** The expression as given, stripped. */
    public String text() {
        return text;
    }

    /** The zone its fields are read in (UTC without a TZ= prefix). */
    public ZoneId zone() {
        return zone;
    }

    /**
     * The first time strictly after {@code after}: the schedule's first due time when registered or unsuspended at
     * {@code after}. Empty when none comes. For @every: after + interval.
     */
    public Optional<Instant> first(Instant after) {
        return series.first(after);
    }

    /**
     * The newest due time in [{@code due}, {@code now}] of the series that continues from the due time {@code due}
     * (for cron: the newest cron time <= now, if it is >= due; for @every: due + k*interval <= now, largest
     * k >= 0). Empty when due is after now.
     */
    public Optional<Instant> newestDue(Instant due, Instant now) {
        if (due.isAfter(now)) {
            return Optional.empty();
        }
        return series.newestDue(due, now);
    }

    /**
     * The first time strictly after {@code now} of the series continuing from the due time {@code due} (cron: the
     * next cron time after now; @every: due + k*interval > now, smallest such k). Empty when none comes.
     */
    public Optional<Instant> following(Instant due, Instant now) {
        return series.following(due, now);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ScheduleExpression expression && text.equals(expression.text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }

    /** The SQL0108 for one expression, naming its property and the expression as given. */
    private record Refusal(String property, String expression) {

        InvalidConfigurationException because(String rule) {
            return new InvalidConfigurationException(List.of(new Violation(property, expression, rule)));
        }

        InvalidConfigurationException tooClose(Duration gap) {
            return because("has times only " + DurationText.format(gap) + " apart; schedules need at least 1 minute"
                    + " between times");
        }
    }

    private sealed interface Series {
        Optional<Instant> first(Instant after);

        /** Only called with {@code due <= now}. */
        Optional<Instant> newestDue(Instant due, Instant now);

        Optional<Instant> following(Instant due, Instant now);

        void check(Instant from, Refusal invalid);
    }

    private record Every(Duration interval) implements Series {

        @Override
        public Optional<Instant> first(Instant after) {
            return plus(after, 1);
        }

        @Override
        public Optional<Instant> newestDue(Instant due, Instant now) {
            return plus(due, Duration.between(due, now).dividedBy(interval));
        }

        @Override
        public Optional<Instant> following(Instant due, Instant now) {
            if (due.isAfter(now)) {
                return Optional.of(due);
            }
            return plus(due, Duration.between(due, now).dividedBy(interval) + 1);
        }

        private Optional<Instant> plus(Instant start, long intervals) {
            try {
                return Optional.of(start.plus(interval.multipliedBy(intervals)));
            } catch (DateTimeException | ArithmeticException beyondTime) {
                return Optional.empty();
            }
        }

        @Override
        public void check(Instant from, Refusal invalid) {
            if (interval.compareTo(SHORTEST_GAP) < 0) {
                throw invalid.tooClose(interval);
            }
        }
    }

    private record Cron(ExecutionTime times, ZoneId zone) implements Series {

        @Override
        public Optional<Instant> first(Instant after) {
            return next(after);
        }

        @Override
        public Optional<Instant> newestDue(Instant due, Instant now) {
            return newestUpTo(now).filter(t -> !t.isBefore(due));
        }

        /**
         * Steps on from the newest time up to {@code now} rather than from {@code now}: in a fall-back
         * overlap cron-utils' nextExecution from a moment after the first 01:30 returns the repeated 01:30,
         * though from 01:30 itself it skips to the next day, so a daily schedule would come due twice.
         */
        @Override
        public Optional<Instant> following(Instant due, Instant now) {
            Optional<Instant> following = newestUpTo(now).flatMap(this::next).filter(t -> t.isAfter(now));
            return following.isPresent() ? following : next(now);
        }

        private Optional<Instant> newestUpTo(Instant now) {
            try {
                // lastExecution gives the newest time strictly before its argument; cron times are whole
                // minutes, so asking before the next minute boundary finds one that falls on now itself.
                ZonedDateTime nextMinute = now.atZone(zone).truncatedTo(ChronoUnit.MINUTES).plusMinutes(1);
                return times.lastExecution(nextMinute).map(ZonedDateTime::toInstant);
            } catch (DateTimeException beyondTime) {
                return Optional.empty();
            }
        }

        private Optional<Instant> next(Instant after) {
            try {
                return times.nextExecution(after.atZone(zone)).map(ZonedDateTime::toInstant);
            } catch (DateTimeException beyondTime) {
                return Optional.empty();
            }
        }

        /** Scans the next 1,000 times, or those of the next 400 days if fewer, for the shortest gap. */
        @Override
        public void check(Instant from, Refusal invalid) {
            Instant previous = next(from).orElseThrow(() -> invalid.because("has no upcoming time"));
            Duration shortest = null;
            for (int seen = 1; seen < CHECKED_TIMES; seen++) {
                Optional<Instant> time = next(previous);
                if (time.isEmpty() || Duration.between(from, time.get()).compareTo(CHECKED_SPAN) > 0) {
                    break;
                }
                Duration gap = Duration.between(previous, time.get());
                if (shortest == null || gap.compareTo(shortest) < 0) {
                    shortest = gap;
                }
                previous = time.get();
            }
            if (shortest != null && shortest.compareTo(SHORTEST_GAP) < 0) {
                throw invalid.tooClose(shortest);
            }
        }
    }
}
