package io.sqlstreams.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

/**
 * Plain JDBC on one schema of the test server, for tests that read or poke the engine's tables behind its back.
 * Every value is bound; in a statement, {@code {s}} stands for the schema.
 */
public class Sql {
    /** What a statement writes where it means the schema. */
    public static final String SCHEMA = "{s}";

    private final DataSource dataSource;
    private final String schema;

    public Sql(DataSource dataSource, String schema) {
        this.dataSource = dataSource;
        this.schema = schema;
    }

    /** The test class's own schema. */
    public Sql(TestDatabase database) {
        this(database.dataSource(), database.schema());
    }

    public final String schema() {
        return schema;
    }

    /** Every row, each as its column values (JDBC objects, null for SQL NULL). */
    public final List<List<Object>> rows(String sql, Object... arguments) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return rows(connection, schema, sql, arguments);
        }
    }

    /** The same on the caller's connection, so inside its transaction. */
    public static List<List<Object>> rows(Connection connection, String schema, String sql, Object... arguments)
            throws SQLException {
        return query(connection, schema, sql, arguments, ResultSet::getObject);
    }

    /** Every row, every column as text ({@code t}/{@code f} for booleans). */
    public final List<List<String>> table(String sql, Object... arguments) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return query(connection, schema, sql, arguments, ResultSet::getString);
        }
    }

    /** The first column of every row, as text. */
    public final List<String> strings(String sql, Object... arguments) throws SQLException {
        return table(sql, arguments).stream().map(row -> row.get(0)).toList();
    }

    /** The first column of the first row as text, or null when there is no row. */
    public final String text(String sql, Object... arguments) throws SQLException {
        List<String> values = strings(sql, arguments);
        return values.isEmpty() ? null : values.get(0);
    }

    /** The single value of a one-row, one-column query (null for SQL NULL). */
    public final Object value(String sql, Object... arguments) throws SQLException {
        List<List<Object>> rows = rows(sql, arguments);
        assertThat(rows).as("rows of %s", sql).hasSize(1);
        return rows.get(0).get(0);
    }

    /** The single number of a query such as {@code SELECT count(*) …}. */
    public final long count(String sql, Object... arguments) throws SQLException {
        return ((Number) value(sql, arguments)).longValue();
    }

    /** The single boolean of a query; SQL NULL counts as false. */
    public final boolean bool(String sql, Object... arguments) throws SQLException {
        return Boolean.TRUE.equals(value(sql, arguments));
    }

    /** Runs one statement; returns the update count. */
    public final int update(String sql, Object... arguments) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = prepare(connection, schema, sql, arguments)) {
            return statement.executeUpdate();
        }
    }

    private interface Column<T> {
        T read(ResultSet row, int column) throws SQLException;
    }

    private static <T> List<List<T>> query(Connection connection, String schema, String sql, Object[] arguments,
                                           Column<T> column) throws SQLException {
        try (PreparedStatement statement = prepare(connection, schema, sql, arguments);
             ResultSet rows = statement.executeQuery()) {
            int width = rows.getMetaData().getColumnCount();
            List<List<T>> values = new ArrayList<>();
            while (rows.next()) {
                List<T> row = new ArrayList<>(width);
                for (int c = 1; c <= width; c++) {
                    row.add(column.read(rows, c));
                }
                values.add(row);
            }
            return values;
        }
    }

    private static PreparedStatement prepare(Connection connection, String schema, String sql, Object[] arguments)
            throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql.replace(SCHEMA, schema));
        try {
            for (int i = 0; i < arguments.length; i++) {
                statement.setObject(i + 1, arguments[i]);
            }
            return statement;
        } catch (SQLException failure) {
            statement.close();
            throw failure;
        }
    }
}
