package io.sqlstreams.testing;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

/**
 * One test class's slice of the test PostgreSQL: the server's data source and a schema that belongs to this
 * class alone.
 *
 * @param dataSource the test server
 * @param schema     a fresh schema name, valid as an installation schema
 */
public record TestDatabase(DataSource dataSource, String schema) {

    /** Runs one statement of test set-up or inspection SQL. */
    public void execute(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
