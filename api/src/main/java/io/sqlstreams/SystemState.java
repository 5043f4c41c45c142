package io.sqlstreams;

import java.time.Instant;

/**
 * The installation as {@link SystemHandle#get()} reads it.
 *
 * @param systemId             the system row's id
 * @param schema               the installation schema
 * @param version              the system scope's DDL version as recorded
 * @param minCompatibleVersion the oldest library DDL version that may read it as recorded; 0 for any
 * @param config               the settings the {@code manager} worker's row holds (defaults when it has none)
 * @param createdAt            when the installation was created
 * @param streams              how many streams are registered
 * @param liveInstances        how many worker instance rows are live (not yet expired), of every worker
 */
public record SystemState(long systemId, String schema, int version, int minCompatibleVersion, SystemConfig config,
                          Instant createdAt, long streams, long liveInstances) {
}
