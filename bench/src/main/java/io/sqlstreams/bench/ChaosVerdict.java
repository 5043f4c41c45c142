package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import javax.sql.DataSource;

/**
 * Reads the chaos lab's ledger against what was produced and what the engine dead-lettered. Table names are the
 * harness's own, never input.
 *
 * <p>Before the drain the harness {@linkplain #recordMessages writes} every stored message with its plan into
 * {@code chaos_message}; the drain waits on {@link #settled()}; after the consumers stopped, {@link #judge} counts:
 * <ul>
 * <li><b>lost</b>: produced messages without their configured outcome — a success run for each one, a dead
 *     exception row for a poison one — or acknowledged but not in the log;</li>
 * <li><b>unexpected</b>: log rows whose sequence number was never acknowledged or is stored twice, and runs of a
 *     message that is not in the log;</li>
 * <li><b>ordered violations</b>: ordered messages whose first success started after the first success of a later
 *     message (higher id) of the same key;</li>
 * <li><b>exclusive overlaps</b>: runs of an exclusive or ordered key that began while another run of that key
 *     was still going. A run ends at its recorded finish; unfinished, at its process's kill; otherwise (its finish
 *     could not be recorded) it counts as ending where it began, so a lost finish never invents an overlap;</li>
 * <li><b>duplicates</b>: runs of a message that started after its first successful run started.</li>
 * </ul>
 * With a {@link HandlerMode#TRANSACTIONAL} handler a message is settled for the drain only once its effect
 * committed as well, and {@link #effects} counts the effects table against the messages ({@link EffectCounts}).
 */
final class ChaosVerdict {
    private static final int EXAMPLES = 5;

    /**
     * The counts, with examples of anything broken.
     *
     * @param stored            rows in the log
     * @param produced          distinct sequence numbers in the log
     * @param notStored         acknowledged sequence numbers missing from the log
     * @param settled           stored messages with their configured outcome
     * @param runs              handler runs recorded
     * @param unfinishedLive    runs without a finish whose process was never killed
     * @param unexpected        see the class comment
     * @param orderViolations   see the class comment
     * @param overlaps          see the class comment
     * @param duplicates        see the class comment
     * @param deadUnplanned     messages dead-lettered although their plan was to succeed
     * @param evidence          example rows of every broken promise
     */
    record Counts(long stored, long produced, long notStored, long settled, long runs, long unfinishedLive,
                  long unexpected, long orderViolations, long overlaps, long duplicates, long deadUnplanned,
                  List<String> evidence) {

        /** Stored messages without their configured outcome. */
        long unsettled() {
            return stored - settled;
        }

        /** See the class comment: not stored, or stored without the configured outcome. */
        long lost() {
            return notStored + unsettled();
        }
    }

    /** The runs of exclusive and ordered keys with the end each is given (see the class comment). */
    private static final String SPANS = "spans AS (SELECT r.run_id, r.message_key, r.message_id, r.process,"
            + " r.attempt, r.started_at AS s, coalesce(r.finished_at, k.at, r.started_at) AS e FROM {l}.chaos_run r"
            + " LEFT JOIN {l}.chaos_fault k ON k.kind = 'kill' AND k.process = r.process"
            + " WHERE r.policy IN ('exclusive', 'ordered'))";
    private static final String FIRST_SUCCESSES = "firsts AS (SELECT message_id, message_key, min(started_at) AS s"
            + " FROM {l}.chaos_run WHERE policy = 'ordered' AND outcome = 'success' GROUP BY message_id, message_key)";

    /** A message of {@code chaos_message m} that has its configured outcome. */
    private static final String SETTLED = "CASE WHEN m.behaviour = 'POISON' THEN EXISTS (SELECT 1 FROM {e} x WHERE"
            + " x.consumer_group_id = {g} AND x.message_id = m.message_id AND x.status = 'dead') ELSE EXISTS (SELECT"
            + " 1 FROM {l}.chaos_run r WHERE r.message_id = m.message_id AND r.outcome = 'success') END";
    /** A message of {@code chaos_message m} whose effect, for the lab's group, committed. */
    private static final String HAS_EFFECT = "EXISTS (SELECT 1 FROM {l}.chaos_effects f WHERE f.consumer_group = {n}"
            + " AND f.message_id = m.message_id)";
    private static final String EXPECTS_EFFECT = "m.behaviour <> 'POISON'";

    private final DataSource dataSource;
    private final String ledger;
    private final String exceptionTable;
    private final long groupId;
    private final HandlerMode mode;

    /**
     * @param ledger         the ledger's schema
     * @param exceptionTable the stream's exception queue, schema-qualified
     * @param groupId        the lab's consumer group
     * @param mode           how the consumers handle a message
     */
    ChaosVerdict(DataSource dataSource, String ledger, String exceptionTable, long groupId, HandlerMode mode) {
        this.dataSource = dataSource;
        this.ledger = ledger;
        this.exceptionTable = exceptionTable;
        this.groupId = groupId;
        this.mode = mode;
    }

    /** Writes every message of {@code logTable} with its plan into {@code chaos_message}; returns how many. */
    long recordMessages(String logTable, ChaosPlan plan) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (Statement statement = connection.createStatement()) {
                statement.execute(sql("CREATE TABLE {l}.chaos_message (message_id bigint PRIMARY KEY, seq bigint NOT"
                        + " NULL, policy text NOT NULL, message_key text, behaviour text NOT NULL)"));
            }
            long count = 0;
            try (Statement read = connection.createStatement();
                 PreparedStatement insert = connection.prepareStatement(sql("INSERT INTO {l}.chaos_message"
                         + " (message_id, seq, policy, message_key, behaviour) VALUES (?, ?, ?, ?, ?)"))) {
                read.setFetchSize(10_000);
                try (ResultSet rows = read.executeQuery("SELECT id, (payload->>'id')::bigint FROM " + logTable)) {
                    while (rows.next()) {
                        ChaosPlan.Message message = plan.message(rows.getLong(2));
                        insert.setLong(1, rows.getLong(1));
                        insert.setLong(2, message.seq());
                        insert.setString(3, message.policy().wireName());
                        insert.setString(4, message.key());
                        insert.setString(5, message.behaviour().name());
                        insert.addBatch();
                        if (++count % 1000 == 0) {
                            insert.executeBatch();
                        }
                    }
                }
                insert.executeBatch();
            }
            connection.commit();
            return count;
        }
    }

    /** Messages that have their configured outcome so far (and, with a transactional handler, their effect). */
    long settled() throws SQLException {
        return count("SELECT count(*) FROM {l}.chaos_message m WHERE " + SETTLED + (mode == HandlerMode.TRANSACTIONAL
                ? " AND (NOT " + EXPECTS_EFFECT + " OR " + HAS_EFFECT + ")" : ""));
    }

    /**
     * Counts the effects table against the messages once the consumers have stopped.
     *
     * @param violations the unique violations the consumer processes reported
     */
    EffectCounts effects(long violations) throws SQLException {
        List<String> evidence = new ArrayList<>();
        long rows = count("SELECT count(*) FROM {l}.chaos_effects");
        long expected = count("SELECT count(*) FROM {l}.chaos_message m WHERE " + EXPECTS_EFFECT);
        long missing = counted(evidence, "SELECT count(*) FROM {l}.chaos_message m WHERE " + EXPECTS_EFFECT
                + " AND NOT " + HAS_EFFECT, "SELECT 'missing effect: message ' || m.message_id || ' (seq ' || m.seq"
                + " || ', ' || m.behaviour || '): runs ' || coalesce((SELECT string_agg(r.process || '#' || r.attempt"
                + " || ' ' || coalesce(r.outcome, 'unfinished'), ', ' ORDER BY r.started_at) FROM {l}.chaos_run r"
                + " WHERE r.message_id = m.message_id), 'none') FROM {l}.chaos_message m WHERE " + EXPECTS_EFFECT
                + " AND NOT " + HAS_EFFECT + " ORDER BY m.message_id");
        long extra = rows - (expected - missing);
        if (extra > 0) {
            evidence.addAll(strings("SELECT 'extra effect: group ' || f.consumer_group || ', message ' || f.message_id"
                    + " || coalesce(' (' || m.behaviour || ')', ' (no such message of the lab''s group)') FROM {l}.chaos_effects f LEFT JOIN"
                    + " {l}.chaos_message m ON f.consumer_group = {n} AND m.message_id = f.message_id WHERE m.message_id"
                    + " IS NULL OR NOT " + EXPECTS_EFFECT + " ORDER BY f.message_id LIMIT " + EXAMPLES));
        }
        return new EffectCounts(rows, missing, extra, violations, List.copyOf(evidence));
    }

    /**
     * Counts everything once the consumers have stopped.
     *
     * @param acknowledged the sequence numbers the producer was acknowledged, ascending
     */
    Counts judge(long[] acknowledged) throws SQLException {
        List<String> evidence = new ArrayList<>();
        long[] stored = longs("SELECT seq FROM {l}.chaos_message ORDER BY seq");
        long[] storedDistinct = Arrays.stream(stored).distinct().toArray();
        long lostProduced = Arrays.stream(acknowledged).filter(seq -> Arrays.binarySearch(storedDistinct, seq) < 0)
                .count();
        long neverAcknowledged = Arrays.stream(storedDistinct)
                .filter(seq -> Arrays.binarySearch(acknowledged, seq) < 0).count();
        long storedTwice = stored.length - storedDistinct.length;
        if (lostProduced + neverAcknowledged + storedTwice > 0) {
            evidence.add(String.format(Locale.ROOT, "produce side: %d acknowledged but not in the log, %d in the log"
                    + " but never acknowledged, %d stored twice", lostProduced, neverAcknowledged, storedTwice));
        }
        long unsettled = counted(evidence, "SELECT count(*) FROM {l}.chaos_message m WHERE NOT (" + SETTLED + ")",
                "SELECT 'lost: message ' || m.message_id || ' (seq ' || m.seq || ', ' || m.policy || coalesce(' '"
                        + " || m.message_key, '') || ', ' || m.behaviour || '): runs ' || coalesce((SELECT"
                        + " string_agg(r.process || '#' || r.attempt || ' ' || coalesce(r.outcome, 'unfinished') || ' at '"
                        + " || to_char(r.started_at, 'HH24:MI:SS.MS'), ', ' ORDER BY r.started_at) FROM {l}.chaos_run r"
                        + " WHERE r.message_id = m.message_id), 'none') || '; exception row ' || coalesce((SELECT"
                        + " x.status || ' attempts=' || x.attempts || ' last_error=' || coalesce(left(x.last_error,"
                        + " 200), '-') FROM {e} x WHERE x.consumer_group_id = {g} AND x.message_id = m.message_id),"
                        + " 'none') FROM {l}.chaos_message m WHERE NOT (" + SETTLED + ") ORDER BY m.message_id");
        long deadUnplanned = count("SELECT count(*) FROM {l}.chaos_message m JOIN {e} x ON x.consumer_group_id = {g}"
                + " AND x.message_id = m.message_id AND x.status = 'dead' WHERE m.behaviour <> 'POISON'");
        long strayRuns = count("SELECT count(*) FROM {l}.chaos_run r WHERE NOT EXISTS (SELECT 1 FROM"
                + " {l}.chaos_message m WHERE m.message_id = r.message_id AND m.seq = r.seq)");
        if (strayRuns > 0) {
            evidence.add(strayRuns + " runs of a message id not in the log (or not with that payload)");
        }
        long orderViolations = counted(evidence, "WITH " + FIRST_SUCCESSES + ", w AS (SELECT s, min(s) OVER"
                + " (PARTITION BY message_key ORDER BY message_id ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) AS"
                + " later FROM firsts) SELECT count(*) FROM w WHERE later < s",
                "WITH " + FIRST_SUCCESSES + " SELECT 'ordered violation: key ' || a.message_key || ': message '"
                        + " || a.message_id || ' first succeeded at ' || to_char(a.s, 'HH24:MI:SS.US') || ', after"
                        + " later message ' || b.message_id || ' at ' || to_char(b.s, 'HH24:MI:SS.US') FROM firsts a"
                        + " JOIN firsts b ON a.message_key = b.message_key AND b.message_id > a.message_id AND b.s < a.s"
                        + " ORDER BY a.message_id");
        long overlaps = counted(evidence, "WITH " + SPANS + ", w AS (SELECT s, max(e) OVER (PARTITION BY message_key"
                + " ORDER BY s, run_id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS busy_until FROM spans)"
                + " SELECT count(*) FROM w WHERE busy_until > s",
                "WITH " + SPANS + " SELECT 'overlap: key ' || a.message_key || ': message ' || a.message_id || ' on '"
                        + " || a.process || '#' || a.attempt || ' ' || to_char(a.s, 'HH24:MI:SS.US') || '–'"
                        + " || to_char(a.e, 'HH24:MI:SS.US') || ' and message ' || b.message_id || ' on ' || b.process"
                        + " || '#' || b.attempt || ' ' || to_char(b.s, 'HH24:MI:SS.US') || '–' || to_char(b.e,"
                        + " 'HH24:MI:SS.US') FROM spans a JOIN spans b ON a.message_key = b.message_key AND a.s <= b.s"
                        + " AND a.run_id <> b.run_id AND b.s < a.e ORDER BY a.s");
        long duplicates = count("WITH firsts AS (SELECT message_id, min(started_at) AS s FROM {l}.chaos_run WHERE"
                + " outcome = 'success' GROUP BY message_id) SELECT count(*) FROM {l}.chaos_run r JOIN firsts f USING"
                + " (message_id) WHERE r.started_at > f.s");
        long runs = count("SELECT count(*) FROM {l}.chaos_run");
        long unfinishedLive = count("SELECT count(*) FROM {l}.chaos_run r WHERE r.finished_at IS NULL AND NOT EXISTS"
                + " (SELECT 1 FROM {l}.chaos_fault k WHERE k.kind = 'kill' AND k.process = r.process)");
        return new Counts(stored.length, storedDistinct.length, lostProduced, stored.length - unsettled, runs, unfinishedLive,
                neverAcknowledged + storedTwice + strayRuns, orderViolations, overlaps, duplicates, deadUnplanned,
                List.copyOf(evidence));
    }

    /**
     * For each storm and restart, how long after it (a restart: after the server accepted connections again) the
     * next handler run began in any process: how quickly consuming resumes.
     */
    List<String> resumptions() throws SQLException {
        return strings("SELECT f.kind || ' at ' || to_char(f.at, 'HH24:MI:SS') || ': ' || coalesce('next run began '"
                + " || to_char(extract(epoch FROM (SELECT min(r.started_at) FROM {l}.chaos_run r WHERE r.started_at >"
                + " f.at) - f.at), 'FM990.0') || ' s later', 'no run after it') FROM {l}.chaos_fault f WHERE f.kind IN"
                + " ('storm', 'restart') ORDER BY f.at");
    }

    /** Handler runs per process and outcome, one line per process, for the notes. */
    List<String> runsByProcess() throws SQLException {
        return strings("SELECT process || ': ' || count(*) || ' runs (' || count(*) FILTER (WHERE outcome ="
                + " 'success') || ' success, ' || count(*) FILTER (WHERE outcome = 'failure') || ' failure, '"
                + " || count(*) FILTER (WHERE outcome IS NULL) || ' unfinished)' FROM {l}.chaos_run GROUP BY process"
                + " ORDER BY length(process), process");
    }

    private String sql(String template) {
        return template.replace("{l}", ledger).replace("{e}", exceptionTable).replace("{g}", Long.toString(groupId))
                .replace("{n}", "'" + ChaosGroup.GROUP + "'");
    }

    private long count(String template) throws SQLException {
        return LedgerQueries.scalar(dataSource, sql(template));
    }

    /** Runs {@code countQuery}; when it counts anything, adds the first rows of {@code examplesQuery} to evidence. */
    private long counted(List<String> evidence, String countQuery, String examplesQuery) throws SQLException {
        long count = count(countQuery);
        if (count > 0) {
            evidence.addAll(strings(examplesQuery + " LIMIT " + EXAMPLES));
        }
        return count;
    }

    private long[] longs(String template) throws SQLException {
        return column(template, rows -> rows.getLong(1)).stream().mapToLong(Long::longValue).toArray();
    }

    private List<String> strings(String template) throws SQLException {
        return column(template, rows -> rows.getString(1));
    }

    /** Reads one value of each row. */
    @FunctionalInterface
    private interface Column<T> {
        T read(ResultSet row) throws SQLException;
    }

    private <T> List<T> column(String template, Column<T> column) throws SQLException {
        List<T> values = new ArrayList<>();
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql(template))) {
            while (rows.next()) {
                values.add(column.read(rows));
            }
        }
        return values;
    }
}
