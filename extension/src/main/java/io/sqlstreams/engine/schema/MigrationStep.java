package io.sqlstreams.engine.schema;

/**
 * One step of a DDL scope: {@code up} brings the scope from {@code version - 1} to {@code version}, {@code down}
 * takes it back. Both name statements of the SQL catalogue. {@code minCompatibleVersion} is the oldest library DDL
 * version that still reads the scope once the step is applied (0 for an additive step: any). {@code table} is the
 * table the step alters, with {@code {id}} for a stream's id: the one to name when the step cannot get its lock.
 */
record MigrationStep(int version, int minCompatibleVersion, String up, String down, String table) {
}
