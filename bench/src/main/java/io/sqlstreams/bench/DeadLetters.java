package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;

import javax.sql.DataSource;

/**
 * Reads what one group dead-lettered from the stream's exception rows (status {@code dead}, see the engine's
 * exception.sql), and which stored messages carry given payload indices, so the two can be held against each other.
 * Table names come from the harness itself.
 *
 * @param dataSource where the stream lives
 * @param stream     the stream
 * @param groupId    the group's id
 */
record DeadLetters(DataSource dataSource, BenchStream stream, long groupId) {

    /** The group's dead exception rows. */
    long count() throws SQLException {
        return LedgerQueries.scalar(dataSource, "SELECT count(*) FROM " + stream.exceptionTable()
                + " WHERE consumer_group_id = " + groupId + " AND status = 'dead'");
    }

    /** The message ids of the group's dead exception rows, ascending. */
    long[] deadIds() throws SQLException {
        return ids("SELECT message_id FROM " + stream.exceptionTable() + " WHERE consumer_group_id = " + groupId
                + " AND status = 'dead' ORDER BY message_id");
    }

    /** The ids of the stored messages whose payload index is one of {@code indices}, ascending. */
    long[] storedWithIndex(long[] indices) throws SQLException {
        return ids("SELECT id FROM " + stream.logTable() + " WHERE (payload->>'id')::bigint = ANY (?) ORDER BY id",
                indices);
    }

    /** The first column of {@code query}'s rows, each {@code ?} bound to one of {@code arrays} in turn. */
    private long[] ids(String query, long[]... arrays) throws SQLException {
        LongList ids = new LongList(64);
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(query)) {
            for (int i = 0; i < arrays.length; i++) {
                statement.setArray(i + 1, connection.createArrayOf("bigint",
                        Arrays.stream(arrays[i]).boxed().toArray()));
            }
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
            }
        }
        return ids.toArray();
    }
}
