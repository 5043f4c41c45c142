package io.sqlstreams;

import java.time.Instant;

/**
 * A registered consumer group as stored: its registration, not its liveness.
 *
 * @param id        the group's id
 * @param stream    the name of the stream it reads
 * @param name      the group's name, unique per stream
 * @param createdAt when it was first registered
 * @param updatedAt when its row last changed
 */
public record Consumer(long id, String stream, String name, Instant createdAt, Instant updatedAt) {
}
