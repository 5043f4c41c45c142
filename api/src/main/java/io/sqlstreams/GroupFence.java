package io.sqlstreams;

import java.time.Duration;

/**
 * Whether a consumer group's fresh claims wait on its stream's fence: an open (or prepared) transaction that produced
 * into the stream and is older than the group's stored observation may still commit an id below that observation's
 * head, so nothing committed after it is handed out until it ends.
 *
 * @param group        the group's name
 * @param oldestHolder the oldest such transaction; null when none holds the group back
 * @param moreHolders  how many other open transactions hold it back as well
 */
public record GroupFence(String group, Holder oldestHolder, long moreHolders) {

    /** True while an open producing transaction holds the group's fresh claims back. */
    public boolean held() {
        return oldestHolder != null;
    }

    /**
     * One line for an operator: {@code not held}, or
     * {@code held for 12 s by pid 4242 (xid 771, idle in transaction), 1 more holder}; {@code no backend} stands for
     * the pid of a prepared transaction, and the time is left out when its start cannot be read.
     */
    public String describe() {
        if (oldestHolder == null) {
            return "not held";
        }
        String line = "held" + (oldestHolder.open() == null ? "" : " for " + oldestHolder.open().toSeconds() + " s")
                + " by " + (oldestHolder.pid() == null ? "no backend" : "pid " + oldestHolder.pid())
                + " (xid " + oldestHolder.xid() + ", " + oldestHolder.state() + ")";
        return moreHolders == 0 ? line
                : line + ", " + moreHolders + (moreHolders == 1 ? " more holder" : " more holders");
    }

    /**
     * An open transaction that produced into the stream.
     *
     * @param pid   its backend's process id, null when it is prepared (no backend runs it)
     * @param xid   its transaction id
     * @param open  how long it has been open, null when PostgreSQL does not show its start to this role
     * @param state what it is doing: {@code pg_stat_activity}'s state ({@code idle in transaction}, {@code active},
     *              …) or {@code prepared as '<gid>'}
     */
    public record Holder(Integer pid, String xid, Duration open, String state) {
    }
}
