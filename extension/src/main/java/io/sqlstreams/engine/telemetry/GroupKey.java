package io.sqlstreams.engine.telemetry;

/** A consumer group by its stream's name and its own. */
record GroupKey(String stream, String group) {
}
