package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.sqlstreams.MessageMeta;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;

/**
 * One test's effects table in {@code public}: a row per message a handler ran, written through the lent
 * connection, with {@code seq} giving the order the rows were inserted in. Its primary key rejects a second row for
 * the same message, so a table holding exactly the expected messages proves each effect committed exactly once.
 */
final class Effects {
    private static final String INSERT = "INSERT INTO %s (consumer_group, message_id) VALUES (?, ?)";

    private final Sql sql;
    private final String table;

    private Effects(TestDatabase database, String table) {
        this.sql = new Sql(database);
        this.table = table;
    }

    static Effects create(TestDatabase database, String name) throws SQLException {
        Effects effects = new Effects(database, "public.tx_effects_" + name + "_"
                + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40, 1L << 41), 36));
        database.execute("CREATE TABLE " + effects.table + " (seq BIGSERIAL NOT NULL, consumer_group TEXT NOT NULL,"
                + " message_id BIGINT NOT NULL, PRIMARY KEY (consumer_group, message_id))");
        return effects;
    }

    /** The handler's write: the row of the message being handled ({@link MessageMeta#current()}), on {@code connection}. */
    void write(Connection connection) throws SQLException {
        writeAll(connection, List.of(MessageMeta.current()));
    }

    /** A batch handler's write: one row per delivery of {@code metas}, in their order, as one JDBC batch. */
    void writeAll(Connection connection, Collection<MessageMeta> metas) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(INSERT.formatted(table))) {
            for (MessageMeta meta : metas) {
                insert.setString(1, meta.group());
                insert.setLong(2, meta.messageId());
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    /** The message ids of the committed rows, in insertion order. */
    List<Long> messageIds() throws SQLException {
        return sql.rows("SELECT message_id FROM " + table + " ORDER BY seq").stream()
                .map(row -> ((Number) row.get(0)).longValue()).toList();
    }

    boolean has(long messageId) throws SQLException {
        return sql.count("SELECT count(*) FROM " + table + " WHERE message_id = ?", messageId) > 0;
    }

    void drop() throws SQLException {
        sql.update("DROP TABLE IF EXISTS " + table);
    }
}
