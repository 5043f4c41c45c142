package io.sqlstreams.engine.consume;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.Map;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.engine.Engine;

/**
 * Records a range's outcomes in one token-guarded statement: the lease is deleted (or, for shutdown's partial
 * commit, narrowed to the unresolved suffix and given back), an exception row is written for every non-success,
 * and the delivery log gets a row per outcome as the stream's mode says. When the token no longer matches, another
 * instance reclaimed the range and owns its outcome: nothing is written (SQL0003, absorbed and counted).
 */
final class RangeRecorder {
    private final Engine engine;
    private final RegisteredGroup group;
    private final SessionCounterSet counters;
    private final KeyLeases keys;

    RangeRecorder(Engine engine, RegisteredGroup group, SessionCounterSet counters, KeyLeases keys) {
        this.engine = engine;
        this.group = group;
        this.counters = counters;
        this.keys = keys;
    }

    /** Commits a fully resolved range; false when the lease was lost. */
    boolean commit(ClaimedRange range, ConsumerConfig config) {
        return record(range, range.resolvedPrefix(), null, config);
    }

    /** Records the resolved prefix and gives the rest back for reclaiming; false when the lease was lost. */
    boolean commitPrefix(ClaimedRange range, ConsumerConfig config) {
        long through = range.resolvedThrough();
        if (through == range.low()) {
            return true;
        }
        return record(range, range.resolvedPrefix(), through == range.high() ? null : through, config);
    }

    /** Gives a never-started range back at once, without counting it as a crash. */
    void surrender(ClaimedRange range) {
        engine.database().autoCommit("surrendering " + range.describe() + " of " + group.describe(), connection -> {
            try (PreparedStatement surrender = connection.prepareStatement(
                    engine.sql().forStream("surrender_range", group.streamId()))) {
                surrender.setLong(1, group.groupId());
                surrender.setString(2, range.token());
                surrender.setLong(3, group.groupId());
                surrender.setString(4, range.token());
                return surrender.executeUpdate();
            }
        });
    }

    private boolean record(ClaimedRange range, Map<Delivery, DeliveryOutcome> outcomes, Long newLow,
                           ConsumerConfig config) {
        Rows rows = Rows.of(outcomes, config.resolvedExceptionInitialBackoff(), group.deliveryLogMode());
        long[] written = engine.database().withRetry("committing " + range.describe() + " of " + group.describe(),
                () -> {
                    try (Connection connection = engine.database().dataSource().getConnection()) {
                        return execute(connection, range, rows, newLow);
                    }
                });
        int keysHeld = range.keyLeasesHeld();
        if (written[2] < keysHeld) {
            keys.warnTakenOver(range, keysHeld - written[2]);
        }
        if (written[0] == 0) {
            counters.leaseLost.increment();
            engine.diagnostics().logger().log(System.Logger.Level.DEBUG, () -> Code.SQL0003.id() + " lease of "
                    + range.describe() + " of " + group.describe() + " was taken over; its outcomes were not written");
            return false;
        }
        outcomes.values().forEach(counters::count);
        if (rows.dead > 0) {
            engine.diagnostics().event(Code.SQL0028, rows.dead + " message(s) of " + range.describe() + " of "
                    + group.describe() + " dead-lettered (dead_count=" + rows.dead + ")");
        }
        return true;
    }

    private long[] execute(Connection connection, ClaimedRange range, Rows rows, Long newLow) throws SQLException {
        try (PreparedStatement record = connection.prepareStatement(
                engine.sql().forStream("record_range", group.streamId()))) {
            int p = 1;
            record.setLong(p++, group.groupId());
            record.setString(p++, range.token());
            setNullableLong(record, p++, newLow);
            setNullableLong(record, p++, newLow);
            record.setLong(p++, group.groupId());
            record.setString(p++, range.token());
            setNullableLong(record, p++, newLow);
            record.setLong(p++, group.groupId());
            record.setString(p++, range.token());
            Array[] arrays = {
                    connection.createArrayOf("int8", rows.messageIds), connection.createArrayOf("text", rows.statuses),
                    connection.createArrayOf("text", rows.messageKeys), connection.createArrayOf("text", rows.concurrency),
                    connection.createArrayOf("int4", rows.delays), connection.createArrayOf("int8", rows.runAfterMicros),
                    connection.createArrayOf("text", rows.errors), connection.createArrayOf("text", rows.logStatuses)};
            for (Array array : arrays) {
                record.setArray(p++, array);
            }
            record.setLong(p++, group.groupId());
            record.setLong(p, group.groupId());
            try (ResultSet row = record.executeQuery()) {
                row.next();
                return new long[] {row.getLong(1), row.getLong(2), row.getLong(3)};
            }
        }
    }

    private static void setNullableLong(PreparedStatement statement, int index, Long value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.BIGINT);
        } else {
            statement.setLong(index, value);
        }
    }

    /** The outcome arrays of one record statement. */
    private static final class Rows {
        Long[] messageIds;
        String[] statuses;
        String[] messageKeys;
        String[] concurrency;
        Integer[] delays;
        Long[] runAfterMicros;
        String[] errors;
        String[] logStatuses;
        int dead;

        static Rows of(Map<Delivery, DeliveryOutcome> outcomes, Duration initialBackoff, DeliveryLogMode mode) {
            Rows rows = new Rows();
            int n = outcomes.size();
            rows.messageIds = new Long[n];
            rows.statuses = new String[n];
            rows.messageKeys = new String[n];
            rows.concurrency = new String[n];
            rows.delays = new Integer[n];
            rows.runAfterMicros = new Long[n];
            rows.errors = new String[n];
            rows.logStatuses = new String[n];
            int i = 0;
            for (Map.Entry<Delivery, DeliveryOutcome> entry : outcomes.entrySet()) {
                Delivery delivery = entry.getKey();
                rows.messageIds[i] = delivery.messageId();
                rows.messageKeys[i] = delivery.messageKey();
                rows.concurrency[i] = delivery.options().concurrency().wireName();
                rows.delays[i] = 0;
                rows.runAfterMicros[i] = 0L;
                DeliveryOutcome outcome = entry.getValue();
                String logStatus;
                if (outcome instanceof DeliveryOutcome.Retry retry) {
                    rows.statuses[i] = "ready";
                    rows.runAfterMicros[i] = FreshClaimer.micros(initialBackoff);
                    rows.errors[i] = retry.error();
                    logStatus = "failure";
                } else if (outcome instanceof DeliveryOutcome.Delay delay) {
                    rows.statuses[i] = "ready";
                    rows.delays[i] = 1;
                    rows.runAfterMicros[i] = FreshClaimer.micros(delay.after());
                    rows.errors[i] = delay.text();
                    logStatus = "delayed";
                } else if (outcome instanceof DeliveryOutcome.Dead dead) {
                    rows.statuses[i] = "dead";
                    rows.errors[i] = dead.error();
                    rows.dead++;
                    logStatus = "failure";
                } else if (outcome instanceof DeliveryOutcome.Deferred deferred) {
                    rows.statuses[i] = "deferred";
                    rows.errors[i] = deferred.reason();
                    logStatus = "deferred";
                } else if (outcome instanceof DeliveryOutcome.Superseded) {
                    rows.errors[i] = "a newer version of the key is its compaction head";
                    logStatus = "superseded";
                } else {
                    logStatus = "success";
                }
                boolean logged = mode == DeliveryLogMode.ALL || mode == DeliveryLogMode.FAILURES && !"success".equals(logStatus);
                rows.logStatuses[i] = logged ? logStatus : null;
                i++;
            }
            return rows;
        }
    }
}
