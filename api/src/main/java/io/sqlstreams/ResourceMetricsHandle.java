package io.sqlstreams;

import java.util.List;

/** The built-in metrics of one stream or one consumer group. No I/O until a verb is called. */
public interface ResourceMetricsHandle {

    /**
     * Reads the source tables now, with the database's clock as every measurement's {@code at}: one measurement
     * per built-in series of this scope. Also the existence check.
     *
     * @throws SqlStreamsException SQL0005 when the stream is not registered; SQL0014 when the group is not
     */
    List<Measurement> snapshot();

    /**
     * The newest retained measurement of each built-in series of this scope that the metrics collector has
     * recorded (absent series are left out); retained is not fresh: compare {@link Measurement#at()}.
     */
    List<Measurement> latest();
}
