package io.sqlstreams.engine.binding;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.sqlstreams.engine.Diagnostics;
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

    private final Sql sql;
    private final Diagnostics diagnostics;
    private final Clock clock;
    private final String declaredBy;
    private final Map<String, Instant> firstStated = new ConcurrentHashMap<>();

    /** One per client: {@code declaredBy} is the client's identity, and it remembers when it first stated each set. */
    public BindingDeclaration(Sql sql, Diagnostics diagnostics, Clock clock, String declaredBy) {
        this.sql = sql;
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
        try (PreparedStatement lock = tx.prepareStatement(sql.get("lock_group_by_id"))) {
            lock.setLong(1, groupId);
            lock.executeQuery().close();
        }
        List<String> installed = installedSet(tx, streamId, groupId);
        if (installed == null ? patterns.isEmpty() : installed.equals(patterns)) {
            return Result.JOINED;
        }
        if (installed != null && othersLive(tx, groupId, ownInstances)) {
            log(tx, streamId, groupId, "waiting", patterns, declaredBy, declaredAt);
            return Result.WAITING;
        }
        log(tx, streamId, groupId, "installed", patterns, declaredBy, declaredAt);
        try (PreparedStatement replace = tx.prepareStatement(sql.forStream("replace_bindings", streamId))) {
            replace.setLong(1, groupId);
            replace.setLong(2, groupId);
            replace.setArray(3, tx.createArrayOf("text", patterns.toArray()));
            replace.setArray(4, tx.createArrayOf("text", patterns.stream().map(BindingPatterns::regex).toArray()));
            replace.executeUpdate();
        }
        diagnostics.info("binding set installed for " + subject + ": " + patterns + " (previously "
                + (installed == null ? "the whole stream" : installed) + ")");
        return Result.INSTALLED;
    }

    private List<String> installedSet(Connection tx, long streamId, long groupId) throws SQLException {
        try (PreparedStatement query = tx.prepareStatement(sql.forStream("installed_binding_set", streamId))) {
            query.setLong(1, groupId);
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? Arrays.asList((String[]) row.getArray(1).getArray()) : null;
            }
        }
    }

    private boolean othersLive(Connection tx, long groupId, List<Long> ownInstances) throws SQLException {
        try (PreparedStatement query = tx.prepareStatement(sql.get("group_live_instances_except"))) {
            query.setLong(1, groupId);
            query.setArray(2, tx.createArrayOf("int8", ownInstances.toArray()));
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getLong(1) > 0;
            }
        }
    }

    private void log(Connection tx, long streamId, long groupId, String status, List<String> patterns,
                     String declaredBy, Instant declaredAt) throws SQLException {
        Array declared = tx.createArrayOf("text", patterns.toArray());
        try (PreparedStatement log = tx.prepareStatement(sql.forStream("log_binding_attempt", streamId))) {
            log.setLong(1, groupId);
            log.setString(2, status);
            log.setArray(3, declared);
            log.setString(4, declaredBy);
            log.setTimestamp(5, Timestamp.from(declaredAt));
            log.executeUpdate();
        }
    }
}
