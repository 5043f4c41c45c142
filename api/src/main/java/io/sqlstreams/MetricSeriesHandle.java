package io.sqlstreams;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One metric series (a name with its attributes) as retained on {@code __system.metrics}. No I/O until called. */
public interface MetricSeriesHandle {

    /** The series' name. */
    String name();

    /** The series' attributes, sorted. */
    Map<String, String> attributes();

    /**
     * The series' newest retained observation (greatest {@code at}), empty when none is retained. Retained is
     * not fresh: compare {@link Measurement#at()} with the time you need.
     */
    Optional<Measurement> latest();

    /** The series' retained measurements in the order they were stored, newest first, at most {@code limit}. */
    List<Measurement> history(int limit);
}
