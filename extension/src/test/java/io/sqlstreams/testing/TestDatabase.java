package io.sqlstreams.testing;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

/**
 * One test class's slice of the test PostgreSQL: the server's data source and a schema that belongs to this
 * class alone, plus any extra schemas the class asks for; all of them are dropped after the class.
 */
public final class TestDatabase {
    private final DataSource dataSource;
    private final String schema;
    private final List<String> extraSchemas = new CopyOnWriteArrayList<>();

    TestDatabase(DataSource dataSource, String schema) {
        this.dataSource = dataSource;
        this.schema = schema;
    }

    /** The test server, through a connection pool. */
    public DataSource dataSource() {
        return dataSource;
    }

    /** A fresh schema name, valid as an installation schema; created before the class. */
    public String schema() {
        return schema;
    }

    /** Another schema name of this class ({@code <schema>_<suffix>}), not created, dropped after the class. */
    public String extraSchema(String suffix) {
        String extra = schema + "_" + suffix;
        extraSchemas.add(extra);
        return extra;
    }

    /** Runs one statement of test set-up or inspection SQL. */
    public void execute(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    void dropSchemas() throws SQLException {
        for (String extra : extraSchemas) {
            execute("DROP SCHEMA IF EXISTS " + extra + " CASCADE");
        }
        execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
}
