package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import io.sqlstreams.Code;
import io.sqlstreams.GroupFence;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.ClaimQueries;
import io.sqlstreams.engine.query.GroupIds;

/**
 * Notices a group's fresh claims held back by the fence for longer than its stream's {@code fenceWarnAfter} and
 * names the open producers that hold it (SQL0160), once a minute while the wait lasts. A wait starts at the first
 * poll whose claim found messages it could not prove and ends at the first poll that claims or finds the group
 * caught up.
 */
final class FenceWatch {
    static final Duration REPEAT_EVERY = Duration.ofMinutes(1);
    private static final int HOLDERS_NAMED = 3;

    private final Engine engine;
    private final RegisteredGroup group;
    private final GroupIds ids;
    private final ClaimQueries queries;
    private Instant waitingSince;
    private Instant warnedAt;

    FenceWatch(Engine engine, RegisteredGroup group, ClaimQueries queries) {
        this.engine = engine;
        this.group = group;
        this.ids = group.ids();
        this.queries = queries;
    }

    /** A poll could not claim messages it saw, because an observation of {@code observedXid} is still fenced. */
    void held(String observedXid) {
        Instant now = engine.environment().clock().instant();
        if (waitingSince == null) {
            waitingSince = now;
            return;
        }
        Duration waited = Duration.between(waitingSince, now);
        if (waited.compareTo(group.fenceWarnAfter()) < 0
                || (warnedAt != null && warnedAt.plus(REPEAT_EVERY).isAfter(now))) {
            return;
        }
        warnedAt = now;
        List<GroupFence.Holder> holders = engine.database().autoCommit("naming the open producers of " + group.describe(),
                connection -> queries.fenceHolders(connection, ids, observedXid, HOLDERS_NAMED));
        if (!holders.isEmpty()) {
            engine.diagnostics().event(Code.SQL0160, "fresh claims of " + group.describe() + " have waited "
                    + waited.toSeconds() + " s on an open transaction that produced into the stream: "
                    + holders.stream().map(FenceWatch::describe).collect(Collectors.joining("; ")));
        }
    }

    /** A poll claimed, or found nothing left: any wait is over. */
    void released() {
        waitingSince = null;
        warnedAt = null;
    }

    private static String describe(GroupFence.Holder holder) {
        String backend = holder.pid() == null ? "no backend" : "pid " + holder.pid();
        String open = holder.open() == null ? "open for an unknown time"
                : String.format(Locale.ROOT, "open %d s", holder.open().toSeconds());
        return backend + ", xid " + holder.xid() + ", " + open + ", " + holder.state();
    }
}
