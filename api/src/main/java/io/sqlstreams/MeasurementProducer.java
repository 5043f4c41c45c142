package io.sqlstreams;

import java.util.List;

/**
 * Produces user measurements to the system stream {@code __system.metrics} (created on first use, retention
 * 24 h), keyed by series and compacted so the series' head is its newest observation. No I/O until a verb is
 * called.
 */
public interface MeasurementProducer {

    /**
     * Validates and stores one measurement; durable when it returns.
     *
     * @throws InvalidNameException (SQL0109) for a malformed name, or one under {@code sqlstreams.}
     * @throws SqlStreamsException  SQL0145 for any other invalid part: no kind, a value that is not finite or a
     *                              negative counter, an unknown unit, a malformed attribute, metadata that is
     *                              not a JSON object, a series key over 1,024 bytes
     */
    ProduceResult produce(Measurement measurement);

    /** Validates every measurement, then stores them all in one transaction, or none; errors as {@link #produce}. */
    List<ProduceResult> produceBatch(List<Measurement> measurements);
}
