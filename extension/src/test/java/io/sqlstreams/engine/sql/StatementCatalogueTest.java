package io.sqlstreams.engine.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.testing.PostgresTest;

/**
 * Every statement of the catalogue, prepared against PostgreSQL in an installation with one stream: it parses,
 * PostgreSQL sees as many parameters as the catalogue resolved, and every position of one name has one type (so
 * binding the name once is right). The binder refuses a name the statement lacks and a name left unbound.
 */
@PostgresTest
class StatementCatalogueTest extends EngineTestBase {
    @SchemaVersion(1)
    public record Probe(String text) {
    }

    private long streamId;

    @BeforeEach
    void registerStream() throws SQLException {
        client.stream("catalogue.probe", Probe.class).register(StreamConfig.defaults());
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement find = connection.prepareStatement(
                     "SELECT id FROM " + database.schema() + ".stream_config WHERE name = 'catalogue.probe'");
             ResultSet row = find.executeQuery()) {
            assertTrue(row.next(), "the probe stream is registered");
            streamId = row.getLong(1);
        }
    }

    @Test
    void everyStatementPreparesWithOneTypePerNamedParameter() throws SQLException {
        Sql sql = new Sql(database.schema());
        List<String> problems = new ArrayList<>();
        try (Connection connection = database.dataSource().getConnection()) {
            for (String name : SqlCatalog.instance().names()) {
                Statement statement = render(sql, name);
                try (PreparedStatement prepared = connection.prepareStatement(statement.text())) {
                    ParameterMetaData parameters = prepared.getParameterMetaData();
                    if (parameters.getParameterCount() != statement.positions().size()) {
                        problems.add(name + ": PostgreSQL sees " + parameters.getParameterCount()
                                + " parameters, the catalogue " + statement.positions().size());
                        continue;
                    }
                    Map<String, String> typeOf = new HashMap<>();
                    for (int i = 0; i < statement.positions().size(); i++) {
                        String parameter = statement.positions().get(i);
                        String type = parameters.getParameterTypeName(i + 1);
                        String earlier = typeOf.putIfAbsent(parameter, type);
                        if (earlier != null && !earlier.equals(type)) {
                            problems.add(name + ": :" + parameter + " is " + earlier + " at one position and " + type
                                    + " at another; cast it to one type");
                        }
                    }
                } catch (SQLException failure) {
                    problems.add(name + ": " + TransientFailures.describe(failure));
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void theBinderRefusesAnUnknownNameAndAnUnboundOne() throws SQLException {
        Statement statement = new Statement("probe", "SELECT ?::int8 + ?::int8 + ?::int8",
                List.of("a", "b", "a"));
        try (Connection connection = database.dataSource().getConnection();
             BoundStatement bound = BoundStatement.prepare(connection, statement)) {
            IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> bound.bind("c", 1L));
            assertTrue(unknown.getMessage().contains(":c"), unknown.getMessage());
            bound.bind("a", 2L);
            IllegalStateException unbound = assertThrows(IllegalStateException.class, bound::query);
            assertTrue(unbound.getMessage().contains("[b]"), unbound.getMessage());
            bound.bind("b", 3L);
            assertEquals(Long.valueOf(7), bound.<Long>querySingle(row -> row.getLong(1)));
        }
    }

    private Statement render(Sql sql, String name) {
        try {
            return sql.statement(name);
        } catch (IllegalStateException needsStream) {
            try {
                return sql.streamStatement(name, streamId);
            } catch (IllegalStateException needsPartition) {
                return sql.partitionStatement(name, streamId, 0, 0, 1);
            }
        }
    }
}
