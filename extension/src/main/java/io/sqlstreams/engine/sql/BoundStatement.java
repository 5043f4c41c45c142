package io.sqlstreams.engine.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * A prepared catalogue statement bound by parameter name. Each name is bound once and reaches every position
 * it appears at. Binding a name the statement does not have, or executing with a name left unbound, is a
 * programming error and fails at once, naming the statement and the parameter.
 */
public final class BoundStatement implements AutoCloseable {
    private final Statement statement;
    private final Connection connection;
    private final PreparedStatement prepared;
    private final Set<String> bound = new HashSet<>();

    private BoundStatement(Statement statement, Connection connection, PreparedStatement prepared) {
        this.statement = statement;
        this.connection = connection;
        this.prepared = prepared;
    }

    public static BoundStatement prepare(Connection connection, Statement statement) throws SQLException {
        return new BoundStatement(statement, connection, connection.prepareStatement(statement.text()));
    }

    public BoundStatement bind(String name, long value) throws SQLException {
        for (int position : positions(name)) {
            prepared.setLong(position, value);
        }
        return this;
    }

    /** Binds a nullable bigint. */
    public BoundStatement bind(String name, Long value) throws SQLException {
        return value == null ? bindNull(name, Types.BIGINT) : bind(name, value.longValue());
    }

    public BoundStatement bind(String name, int value) throws SQLException {
        for (int position : positions(name)) {
            prepared.setInt(position, value);
        }
        return this;
    }

    /** Binds a nullable integer. */
    public BoundStatement bind(String name, Integer value) throws SQLException {
        return value == null ? bindNull(name, Types.INTEGER) : bind(name, value.intValue());
    }

    public BoundStatement bind(String name, boolean value) throws SQLException {
        for (int position : positions(name)) {
            prepared.setBoolean(position, value);
        }
        return this;
    }

    /** Binds nullable text; also how uuid, xid8, jsonb and interval values travel, cast in the statement. */
    public BoundStatement bind(String name, String value) throws SQLException {
        if (value == null) {
            return bindNull(name, Types.VARCHAR);
        }
        for (int position : positions(name)) {
            prepared.setString(position, value);
        }
        return this;
    }

    /** Binds a nullable uuid. */
    public BoundStatement bind(String name, UUID value) throws SQLException {
        if (value == null) {
            return bindNull(name, Types.OTHER);
        }
        for (int position : positions(name)) {
            prepared.setObject(position, value);
        }
        return this;
    }

    /** Binds a nullable timestamptz. */
    public BoundStatement bind(String name, Instant value) throws SQLException {
        if (value == null) {
            return bindNull(name, Types.TIMESTAMP_WITH_TIMEZONE);
        }
        OffsetDateTime at = value.atOffset(ZoneOffset.UTC);
        for (int position : positions(name)) {
            prepared.setObject(position, at);
        }
        return this;
    }

    /** Binds an array of PostgreSQL element type {@code elementType} ({@code int8}, {@code text}, …). */
    public BoundStatement bindArray(String name, String elementType, Object[] values) throws SQLException {
        java.sql.Array array = connection.createArrayOf(elementType, values);
        for (int position : positions(name)) {
            prepared.setArray(position, array);
        }
        return this;
    }

    public BoundStatement bindNull(String name, int sqlType) throws SQLException {
        for (int position : positions(name)) {
            prepared.setNull(position, sqlType);
        }
        return this;
    }

    /** Bounds the statement's run time; JDBC counts whole seconds, so the bound is rounded up, to one at least. */
    public BoundStatement timeout(Duration timeout) throws SQLException {
        prepared.setQueryTimeout((int) Math.max(1, (timeout.toMillis() + 999) / 1000));
        return this;
    }

    /** Runs a query whose rows the caller reads; close the result set before this statement. */
    public ResultSet query() throws SQLException {
        requireComplete();
        return prepared.executeQuery();
    }

    /** The first row mapped, or empty when there is none. */
    public <R> Optional<R> queryOne(RowMapper<R> mapper) throws SQLException {
        try (ResultSet rows = query()) {
            return rows.next() ? Optional.of(mapper.map(rows)) : Optional.empty();
        }
    }

    /** The first row mapped; the statement always returns one (an aggregate or a {@code RETURNING} of a CTE). */
    public <R> R querySingle(RowMapper<R> mapper) throws SQLException {
        return queryOne(mapper).orElseThrow(() -> new IllegalStateException(
                "SQL statement " + statement.name() + " returned no row"));
    }

    /** Every row mapped, in order. */
    public <R> List<R> queryList(RowMapper<R> mapper) throws SQLException {
        List<R> mapped = new ArrayList<>();
        try (ResultSet rows = query()) {
            while (rows.next()) {
                mapped.add(mapper.map(rows));
            }
        }
        return mapped;
    }

    /** Runs an insert, update, delete or DDL statement; the number of rows it changed. */
    public int update() throws SQLException {
        requireComplete();
        return prepared.executeUpdate();
    }

    /** Adds the current bindings as one row of a batch; every parameter is bound afresh for the next row. */
    public void addBatch() throws SQLException {
        requireComplete();
        prepared.addBatch();
        bound.clear();
    }

    public int[] executeBatch() throws SQLException {
        return prepared.executeBatch();
    }

    @Override
    public void close() throws SQLException {
        prepared.close();
    }

    private List<Integer> positions(String name) {
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < statement.positions().size(); i++) {
            if (statement.positions().get(i).equals(name)) {
                positions.add(i + 1);
            }
        }
        if (positions.isEmpty()) {
            throw new IllegalArgumentException("SQL statement " + statement.name() + " has no parameter :" + name);
        }
        bound.add(name);
        return positions;
    }

    private void requireComplete() {
        Set<String> missing = new LinkedHashSet<>(statement.parameters());
        missing.removeAll(bound);
        if (!missing.isEmpty()) {
            throw new IllegalStateException("SQL statement " + statement.name() + " executed with unbound parameters "
                    + missing);
        }
    }
}
