package io.sqlstreams;

import java.util.List;

/**
 * What a stream still holds of one payload version ({@link SchemaVersion}) and what may still read it: the evidence
 * for retiring that version's payload type once its producers stopped.
 *
 * @param schemaVersion   the payload version
 * @param messages        how many of its messages the stream still retains
 * @param firstId         the oldest of them, null when none is retained
 * @param lastId          the newest of them, null when none is retained
 * @param compactionHeads how many message keys' current compaction head is at this version
 * @param groups          the consumer groups that still hold something at this version, ordered by name
 */
public record StreamVersionHealth(int schemaVersion, long messages, Long firstId, Long lastId, long compactionHeads,
                                  List<GroupVersionHealth> groups) {

    public StreamVersionHealth {
        groups = List.copyOf(groups);
    }

    /**
     * True when nothing at this version is left to read: no compaction head is at it and no group has it unread,
     * retrying or dead. Its retained messages stay until retention removes them.
     */
    public boolean retirable() {
        return compactionHeads == 0 && groups.isEmpty();
    }

    /**
     * One consumer group's share of a payload version.
     *
     * @param group    the group's name
     * @param unread   messages at this version past its committed cursor that a reader of this version will be
     *                 delivered: its bindings match their routing key and, for a compacted message, it is still its
     *                 key's head (a group on another version passes them over without reading them)
     * @param retrying messages at this version waiting in its exception queue: ready, in flight or deferred
     * @param dead     its dead letters at this version, which only a reader of this version can redrive
     */
    public record GroupVersionHealth(String group, long unread, long retrying, long dead) {
    }
}
