package io.sqlstreams.engine.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.List;
import java.util.logging.Logger;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.Code;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.EngineClient;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

/**
 * Installing needs CREATE on the database (digest §2.3, §8.2): a role without it gets SQL0064 naming the schema,
 * and nothing is created. The restricted role is reached through a data source that runs {@code SET ROLE} on every
 * borrowed connection and {@code RESET ROLE} when it is handed back.
 */
@PostgresTest
class SchemaPermissionTest {
    @SchemaVersion(1)
    public record Audited(String what) {
    }

    private static String role;

    @BeforeAll
    static void createRole(TestDatabase database) throws SQLException {
        role = "r_" + database.schema();
        database.execute("CREATE ROLE " + role + " LOGIN");
    }

    @AfterAll
    static void dropRole(TestDatabase database) throws SQLException {
        if (role != null) {
            database.execute("DROP OWNED BY " + role + " CASCADE");
            database.execute("DROP ROLE IF EXISTS " + role);
        }
    }

    private static EngineClient restrictedClient(TestDatabase database, String schema) {
        return EngineClient.create(new RoleDataSource(database.dataSource(), role),
                ClientConfig.builder().schema(schema).logger(new RecordingLogger()).build(),
                EngineEnvironment.standalone());
    }

    @Test
    void theRoleReallyLacksCreate(TestDatabase database) throws SQLException {
        SchemaProbe probe = new SchemaProbe(database);
        assertThat(probe.string("SELECT has_database_privilege(?, current_database(), 'CREATE')::text", role))
                .as("the test role must not be able to create schemas, or the tests below pass vacuously")
                .isEqualTo("false");
        // and the wrapper really switches roles (and switches back)
        DataSource restricted = new RoleDataSource(database.dataSource(), role);
        assertThat(new SchemaProbe(restricted, database.schema()).string("SELECT current_user")).isEqualTo(role);
        assertThat(probe.string("SELECT current_user")).isNotEqualTo(role);
    }

    @Test
    void aRoleWithoutCreateOnTheDatabaseCannotInstall(TestDatabase database) throws SQLException {
        String schema = database.extraSchema("denied");
        SchemaProbe probe = new SchemaProbe(database, schema);
        EngineClient client = restrictedClient(database, schema);

        SqlStreamsException denied = catchThrowableOfType(() -> client.stream("perm.stream", Audited.class).register(),
                SqlStreamsException.class);

        assertThat(denied).isNotNull();
        assertThat(denied.code()).isEqualTo(Code.SQL0064);
        assertThat(denied.isTransient()).isFalse();
        assertThat(denied.getMessage()).startsWith("SQL0064 ").contains(schema);
        assertThat(denied.getCause()).isInstanceOf(SQLException.class);
        assertThat(((SQLException) denied.getCause()).getSQLState()).isEqualTo("42501");
        assertThat(probe.schemaExists()).as("the schema was not created").isFalse();

        // the reads stay harmless and empty for that role
        assertThat(client.streams()).isEmpty();
        assertThat(client.stream("perm.stream", Audited.class).get()).isEmpty();
        assertThat(probe.schemaExists()).isFalse();

        // a second attempt is refused the same way (nothing half-installed to trip over)
        SqlStreamsException again = catchThrowableOfType(() -> client.stream("perm.other", Audited.class).register(),
                SqlStreamsException.class);
        assertThat(again.code()).isEqualTo(Code.SQL0064);
        assertThat(probe.schemaExists()).isFalse();
    }

    /**
     * SQL0064's own message offers "or create the schema for it": a DBA who creates the schema and hands it to the
     * role (owner, so CREATE on it) should let the role install without CREATE on the database.
     */
    @Test
    void aRoleThatOwnsAPreparedSchemaCanInstall(TestDatabase database) throws SQLException {
        String schema = database.extraSchema("owned");
        database.execute("CREATE SCHEMA " + schema + " AUTHORIZATION " + role);
        SchemaProbe probe = new SchemaProbe(database, schema);
        assertThat(probe.string("SELECT has_schema_privilege(?, ?, 'CREATE')::text", role, schema)).isEqualTo("true");
        assertThat(probe.string("SELECT has_database_privilege(?, current_database(), 'CREATE')::text", role))
                .isEqualTo("false");
        EngineClient client = restrictedClient(database, schema);

        Throwable failure = catchThrowable(() -> client.stream("perm.prepared", Audited.class).register());

        assertThat(failure).as("registering into a schema the role owns").isNull();
        assertThat(probe.tables()).containsAll(SchemaProbe.SHARED_TABLES);
    }

    /** SQL0064's action: "let a privileged role register the system once beforehand". */
    @Test
    void aRoleWithoutDdlRightsCanRedeclareWhatAPrivilegedRoleInstalled(TestDatabase database) throws SQLException {
        String schema = database.extraSchema("prepared");
        EngineClient privileged = EngineClient.create(database.dataSource(),
                ClientConfig.builder().schema(schema).logger(new RecordingLogger()).build(),
                EngineEnvironment.standalone());
        Stream installed = privileged.stream("perm.installed", Audited.class).register();
        database.execute("GRANT USAGE ON SCHEMA " + schema + " TO " + role);
        database.execute("GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA " + schema + " TO " + role);
        database.execute("GRANT USAGE ON ALL SEQUENCES IN SCHEMA " + schema + " TO " + role);
        SchemaProbe probe = new SchemaProbe(database, schema);
        assertThat(probe.string("SELECT has_schema_privilege(?, ?, 'CREATE')::text", role, schema)).isEqualTo("false");
        List<String> tables = probe.tables();
        EngineClient client = restrictedClient(database, schema);

        assertThat(client.stream("perm.installed", Audited.class).register()).isEqualTo(installed);
        assertThat(client.stream("perm.installed", Audited.class).get()).contains(installed);
        assertThat(client.streams()).containsExactly(installed);
        assertThat(probe.tables()).isEqualTo(tables);
    }

    /** Delegates to a pool and runs every borrowed connection as {@code role}. */
    static final class RoleDataSource implements DataSource {
        private final DataSource delegate;
        private final String role;

        RoleDataSource(DataSource delegate, String role) {
            this.delegate = delegate;
            this.role = role;
        }

        @Override
        public Connection getConnection() throws SQLException {
            return asRole(delegate.getConnection());
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            return asRole(delegate.getConnection(username, password));
        }

        private Connection asRole(Connection connection) throws SQLException {
            try (Statement statement = connection.createStatement()) {
                statement.execute("SET ROLE " + role);
            } catch (SQLException failure) {
                connection.close();
                throw failure;
            }
            InvocationHandler handler = (proxy, method, arguments) -> {
                if (method.getName().equals("close") && method.getParameterCount() == 0) {
                    try {
                        if (!connection.isClosed()) {
                            if (!connection.getAutoCommit()) {
                                connection.rollback();
                                connection.setAutoCommit(true);
                            }
                            try (Statement statement = connection.createStatement()) {
                                statement.execute("RESET ROLE");
                            }
                        }
                    } finally {
                        connection.close();
                    }
                    return null;
                }
                try {
                    return method.invoke(connection, arguments);
                } catch (InvocationTargetException failure) {
                    throw failure.getCause();
                }
            };
            return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, handler);
        }

        @Override
        public PrintWriter getLogWriter() throws SQLException {
            return delegate.getLogWriter();
        }

        @Override
        public void setLogWriter(PrintWriter out) throws SQLException {
            delegate.setLogWriter(out);
        }

        @Override
        public void setLoginTimeout(int seconds) throws SQLException {
            delegate.setLoginTimeout(seconds);
        }

        @Override
        public int getLoginTimeout() throws SQLException {
            return delegate.getLoginTimeout();
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            return delegate.getParentLogger();
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            return delegate.unwrap(type);
        }

        @Override
        public boolean isWrapperFor(Class<?> type) throws SQLException {
            return delegate.isWrapperFor(type);
        }
    }
}
