package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;

import javax.sql.DataSource;

/**
 * A schema of one run ({@code bench_<random>}), created here and dropped with everything in it on close, so a
 * shared server is left as it was found.
 *
 * @param dataSource the server
 * @param name       the schema's name, valid as a library installation schema
 */
record ThrowawaySchema(DataSource dataSource, String name) implements AutoCloseable {

    static ThrowawaySchema create(DataSource dataSource) throws SQLException {
        ThrowawaySchema schema = new ThrowawaySchema(dataSource,
                "bench_" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40, 1L << 41), 36));
        schema.execute("CREATE SCHEMA " + schema.name);
        return schema;
    }

    @Override
    public void close() throws SQLException {
        execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
