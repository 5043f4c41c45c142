package io.sqlstreams.bench;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The phase lengths of the long-running scenarios ({@code retention}, {@code mvcc}); every one is optional and the
 * scenario picks its defaults (smoke or not).
 *
 * @param seconds {@code --seconds} as given: the length of {@code retention}'s steady soak
 * @param hold    {@code --hold-seconds}: {@code retention}'s second phase (half held back, half released)
 * @param before  {@code --before}: {@code mvcc}'s phase before the xmin horizon is held
 * @param during  {@code --during}: {@code mvcc}'s phase while it is held
 * @param after   {@code --after}: {@code mvcc}'s phase after it was released
 * @param horizon {@code --horizon}: how {@code mvcc} holds the horizon
 * @param holder  {@code --holder}: where {@code mvcc}'s holding transaction runs
 */
record PhaseOptions(Optional<Duration> seconds, Optional<Duration> hold, Optional<Duration> before,
                    Optional<Duration> during, Optional<Duration> after, Optional<HorizonHolder.Kind> horizon,
                    Optional<HorizonHolder.Place> holder) {

    static final List<String> FLAGS = List.of("--hold-seconds", "--before", "--during", "--after", "--horizon",
            "--holder");

    static PhaseOptions none() {
        return new PhaseOptions(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** These options with {@code --seconds} given as {@code length}. */
    PhaseOptions withSeconds(Duration length) {
        return new PhaseOptions(Optional.of(length), hold, before, during, after, horizon, holder);
    }

    /** These options with {@code flag} (one of {@link #FLAGS}) set to {@code value}. */
    PhaseOptions with(String flag, String value) throws BenchOptions.UsageException {
        if (flag.equals("--horizon")) {
            return new PhaseOptions(seconds, hold, before, during, after, Optional.of(kind(value, flag)), holder);
        }
        if (flag.equals("--holder")) {
            return new PhaseOptions(seconds, hold, before, during, after, horizon, Optional.of(place(value, flag)));
        }
        Optional<Duration> length = Optional.of(BenchOptions.positiveSeconds(value, flag));
        return switch (flag) {
            case "--hold-seconds" -> new PhaseOptions(seconds, length, before, during, after, horizon, holder);
            case "--before" -> new PhaseOptions(seconds, hold, length, during, after, horizon, holder);
            case "--during" -> new PhaseOptions(seconds, hold, before, length, after, horizon, holder);
            case "--after" -> new PhaseOptions(seconds, hold, before, during, length, horizon, holder);
            default -> throw new IllegalArgumentException("not a phase flag: " + flag);
        };
    }

    private static HorizonHolder.Place place(String value, String flag) throws BenchOptions.UsageException {
        for (HorizonHolder.Place place : HorizonHolder.Place.values()) {
            if (place.flag().equals(value)) {
                return place;
            }
        }
        throw new BenchOptions.UsageException(flag + " needs same-database, other-database, prepared or producer,"
                + " not " + value);
    }

    private static HorizonHolder.Kind kind(String value, String flag) throws BenchOptions.UsageException {
        for (HorizonHolder.Kind kind : HorizonHolder.Kind.values()) {
            if (kind.flag().equals(value)) {
                return kind;
            }
        }
        throw new BenchOptions.UsageException(flag + " needs xid or snapshot, not " + value);
    }
}
