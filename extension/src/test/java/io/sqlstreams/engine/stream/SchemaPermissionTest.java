package io.sqlstreams.engine.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.SQLException;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.RoleDataSource;
import io.sqlstreams.testing.TestDatabase;

/**
 * Installing needs CREATE on the database (digest §2.3, §8.2): a role without it gets SQL0064 naming the schema,
 * and nothing is created. The restricted role is reached through a {@link RoleDataSource}, which runs
 * {@code SET ROLE} on every borrowed connection and {@code RESET ROLE} when it is handed back.
 */
@PostgresTest
class SchemaPermissionTest extends StreamTestBase {
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

    private EngineClient restrictedClient(String schema) {
        return clientOn(new RoleDataSource(database.dataSource(), role), schema, false, new RecordingLogger());
    }

    @Test
    void theRoleReallyLacksCreate() throws SQLException {
        assertThat(probe.text("SELECT has_database_privilege(?, current_database(), 'CREATE')::text", role))
                .as("the test role must not be able to create schemas, or the tests below pass vacuously")
                .isEqualTo("false");
        // and the wrapper really switches roles (and switches back)
        DataSource restricted = new RoleDataSource(database.dataSource(), role);
        assertThat(new SchemaProbe(restricted, database.schema()).text("SELECT current_user")).isEqualTo(role);
        assertThat(probe.text("SELECT current_user")).isNotEqualTo(role);
    }

    @Test
    void aRoleWithoutCreateOnTheDatabaseCannotInstall() throws SQLException {
        String schema = database.extraSchema("denied");
        SchemaProbe probe = new SchemaProbe(database, schema);
        EngineClient client = restrictedClient(schema);

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
    void aRoleThatOwnsAPreparedSchemaCanInstall() throws SQLException {
        String schema = database.extraSchema("owned");
        database.execute("CREATE SCHEMA " + schema + " AUTHORIZATION " + role);
        SchemaProbe probe = new SchemaProbe(database, schema);
        assertThat(probe.text("SELECT has_schema_privilege(?, ?, 'CREATE')::text", role, schema)).isEqualTo("true");
        assertThat(probe.text("SELECT has_database_privilege(?, current_database(), 'CREATE')::text", role))
                .isEqualTo("false");
        EngineClient client = restrictedClient(schema);

        Throwable failure = catchThrowable(() -> client.stream("perm.prepared", Audited.class).register());

        assertThat(failure).as("registering into a schema the role owns").isNull();
        assertThat(probe.tables()).containsAll(SchemaProbe.SHARED_TABLES);
    }

    /** SQL0064's action: "let a privileged role register the system once beforehand". */
    @Test
    void aRoleWithoutDdlRightsCanRedeclareWhatAPrivilegedRoleInstalled() throws SQLException {
        String schema = database.extraSchema("prepared");
        EngineClient privileged = clientOn(schema, false);
        Stream installed = privileged.stream("perm.installed", Audited.class).register();
        database.execute("GRANT USAGE ON SCHEMA " + schema + " TO " + role);
        database.execute("GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA " + schema + " TO " + role);
        database.execute("GRANT USAGE ON ALL SEQUENCES IN SCHEMA " + schema + " TO " + role);
        SchemaProbe probe = new SchemaProbe(database, schema);
        assertThat(probe.text("SELECT has_schema_privilege(?, ?, 'CREATE')::text", role, schema)).isEqualTo("false");
        List<String> tables = probe.tables();
        EngineClient client = restrictedClient(schema);

        assertThat(client.stream("perm.installed", Audited.class).register()).isEqualTo(installed);
        assertThat(client.stream("perm.installed", Audited.class).get()).contains(installed);
        assertThat(client.streams()).containsExactly(installed);
        assertThat(probe.tables()).isEqualTo(tables);
    }
}
