package io.sqlstreams;

import java.time.Instant;
import java.util.List;

/**
 * A consumer group's routing binding set as recorded.
 *
 * @param stream        the stream's name
 * @param consumerGroup the group's name
 * @param status        {@code installed} (the effective set) or {@code waiting} (a declared change blocked by a
 *                      live instance of the group)
 * @param patterns      the whole pattern set, sorted; a message reaches the group when its routing key matches
 *                      one of them
 * @param declaredBy    who declared it ({@code hostname:pid:random}, display only)
 * @param declaredAt    when that declarer first stated this set
 * @param attemptedAt   when this row was written
 */
public record Binding(String stream, String consumerGroup, String status, List<String> patterns, String declaredBy,
                      Instant declaredAt, Instant attemptedAt) {

    public Binding {
        patterns = List.copyOf(patterns);
    }
}
