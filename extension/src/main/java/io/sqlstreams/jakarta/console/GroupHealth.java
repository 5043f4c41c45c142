package io.sqlstreams.jakarta.console;

import io.sqlstreams.ConsumerInspection;

/**
 * One word for a group on the overview, with its reason: {@code paused} first, then {@code dead letters}, then
 * {@code no live instance} when nothing consumes a group that has a backlog or exception rows, else {@code ok}.
 */
record GroupHealth(String word, String reason) {

    static GroupHealth of(ConsumerInspection group, Integer liveInstances) {
        if (group.paused()) {
            return new GroupHealth("paused", "paused by " + group.pause().actor() + " at " + group.pause().at());
        }
        if (group.dead() > 0) {
            return new GroupHealth("dead letters", group.dead() + " dead letter(s) wait for redrive or discard");
        }
        long unresolved = group.exceptions().values().stream().mapToLong(Long::longValue).sum();
        if ((liveInstances == null || liveInstances == 0) && (group.lag() > 0 || unresolved > 0)) {
            return new GroupHealth("no live instance", "messages wait and no instance of the group is live");
        }
        return new GroupHealth("ok", "");
    }
}
