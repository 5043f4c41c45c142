package io.sqlstreams.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.sqlstreams.ClientConfig;

@PostgresTest
class PostgresHarnessTest {

    @Test
    void runsAgainstTheConfiguredServer(TestDatabase database) throws SQLException {
        int major = queryInt(database, "SELECT current_setting('server_version_num')::int / 10000");
        int port = queryInt(database, "SELECT current_setting('port')::int");
        var configured = TestPostgres.configuredUrl();
        if (configured.isPresent()) {
            URI uri = URI.create(configured.get().substring("jdbc:".length()));
            assertThat(port).as(TestPostgres.description()).isEqualTo(uri.getPort() == -1 ? 5432 : uri.getPort());
        } else {
            assertThat(major).as("embedded server pinned by the binaries BOM").isEqualTo(17);
        }
        assertThat(major).isGreaterThanOrEqualTo(15);
    }

    @Test
    void givesTheClassAFreshValidSchema(TestDatabase database) throws SQLException {
        assertThat(ClientConfig.SCHEMA_NAME.matcher(database.schema()).matches()).isTrue();
        assertThat(database.schema()).startsWith("t_postgres_harness_test_");
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement exists = connection.prepareStatement(
                     "SELECT count(*) FROM information_schema.schemata WHERE schema_name = ?")) {
            exists.setString(1, database.schema());
            try (ResultSet rows = exists.executeQuery()) {
                rows.next();
                assertThat(rows.getInt(1)).isEqualTo(1);
            }
        }
    }

    @Test
    void storesAndReadsBackRowsInItsSchema(TestDatabase database) throws SQLException {
        String table = database.schema() + ".harness_probe";
        database.execute("CREATE TABLE " + table + " (id bigint PRIMARY KEY, body jsonb NOT NULL)");
        try (Connection connection = database.dataSource().getConnection()) {
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO " + table + " (id, body) VALUES (?, ?::jsonb)")) {
                for (long id = 1; id <= 3; id++) {
                    insert.setLong(1, id);
                    insert.setString(2, "{\"n\": " + id + ", \"quote\": \"it's; DROP TABLE x\"}");
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            List<String> quotes = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT body->>'quote' FROM " + table + " ORDER BY id");
                 ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    quotes.add(rows.getString(1));
                }
            }
            assertThat(quotes).containsExactly("it's; DROP TABLE x", "it's; DROP TABLE x", "it's; DROP TABLE x");
        }
    }

    @Test
    void schemaNamesDifferPerClassAndRun() {
        String first = PostgresExtension.schemaFor(PostgresHarnessTest.class);
        String second = PostgresExtension.schemaFor(PostgresHarnessTest.class);
        assertThat(first).isNotEqualTo(second);
        assertThat(PostgresExtension.schemaFor(SchemaNameWithAVeryLongNameThatGoesOnAndOnBeyondAnyLimitTest.class))
                .matches(ClientConfig.SCHEMA_NAME);
    }

    private static int queryInt(TestDatabase database, String sql) throws SQLException {
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement statement = connection.prepareStatement(sql);
             ResultSet rows = statement.executeQuery()) {
            rows.next();
            return rows.getInt(1);
        }
    }

    private static final class SchemaNameWithAVeryLongNameThatGoesOnAndOnBeyondAnyLimitTest {
    }
}
