package io.sqlstreams.engine.binding;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.sqlstreams.Code;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.query.BindingQueries;
import io.sqlstreams.engine.query.BindingStatus;
import io.sqlstreams.engine.query.GroupQueries;
import io.sqlstreams.engine.sql.Sql;

/**
 * One attempt to declare a consumer group's whole binding set, under a lock on the group's row so installers
 * take turns. The first declared set is installed; the same set as the installed one joins it (nothing
 * written); a different set is installed only while no other instance of the group is live, and otherwise
 * waits, never changing the effective set. Installed and waiting attempts are logged in
 * {@code binding_config_log}. A change is forward-only: it affects claims made after it is installed.
 */
public final class BindingDeclaration {
    /** What an attempt did. */
    public enum Result { INSTALLED, JOINED, WAITING }

    private final GroupQueries groups;
    private final BindingQueries bindings;
    private final Diagnostics diagnostics;
    private final Clock clock;
    private final String declaredBy;
    private final Map<String, Instant> firstStated = new ConcurrentHashMap<>();

    /** One per client: {@code declaredBy} is the client's identity, and it remembers when it first stated each set. */
    public BindingDeclaration(Sql sql, Diagnostics diagnostics, Clock clock, String declaredBy) {
        this.groups = new GroupQueries(sql);
        this.bindings = new BindingQueries(sql);
        this.diagnostics = diagnostics;
        this.clock = clock;
        this.declaredBy = declaredBy;
    }

    /**
     * @param patterns     the declared set, already {@link BindingPatterns#normalize normalised}; empty is the
     *                     whole stream
     * @param ownInstances this declarer's own liveness rows, which do not block it
     */
    public Result declare(Connection tx, long streamId, long groupId, String subject, List<String> patterns,
                          List<Long> ownInstances) throws SQLException {
        Instant declaredAt = firstStated.computeIfAbsent(streamId + "/" + groupId + "/" + patterns,
                set -> clock.instant());
        groups.lock(tx, groupId);
        List<String> installed = bindings.installedSet(tx, streamId, groupId).orElse(null);
        if (installed == null ? patterns.isEmpty() : installed.equals(patterns)) {
            return Result.JOINED;
        }
        boolean blocked = installed != null && groups.liveInstancesExcept(tx, groupId, ownInstances) > 0;
        bindings.log(tx, streamId, new BindingQueries.Attempt(groupId,
                blocked ? BindingStatus.WAITING : BindingStatus.INSTALLED, patterns, declaredBy, declaredAt));
        if (blocked) {
            return Result.WAITING;
        }
        bindings.replace(tx, streamId, groupId, patterns, patterns.stream().map(BindingPatterns::regex).toList());
        diagnostics.event(Code.SQL0117, "binding set installed for " + subject + ": " + patterns + " (previously "
                + (installed == null ? "the whole stream" : installed) + ")");
        return Result.INSTALLED;
    }
}
