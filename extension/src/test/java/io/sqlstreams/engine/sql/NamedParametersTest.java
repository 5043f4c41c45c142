package io.sqlstreams.engine.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

class NamedParametersTest {
    @Test
    void namesBecomePositionsAndRepeatsKeepTheirName() {
        NamedParameters.Parsed parsed = NamedParameters.parse("t",
                "SELECT 1 FROM t WHERE g = :group_id AND token = :token::uuid OR g = :group_id");
        assertEquals("SELECT 1 FROM t WHERE g = ? AND token = ?::uuid OR g = ?", parsed.text());
        assertEquals(List.of("group_id", "token", "group_id"), parsed.positions());
    }

    @Test
    void castsLiteralsAndQuotedIdentifiersAreLeftAlone() {
        NamedParameters.Parsed parsed = NamedParameters.parse("t",
                "SELECT now()::text, ':not_a_name', 'it''s :x', \"col:y\", :a * interval '1 microsecond'");
        assertEquals("SELECT now()::text, ':not_a_name', 'it''s :x', \"col:y\", ? * interval '1 microsecond'",
                parsed.text());
        assertEquals(List.of("a"), parsed.positions());
    }

    @Test
    void aPositionalPlaceholderIsRefusedAndSoIsAnUnclosedQuote() {
        assertThrows(IllegalStateException.class, () -> NamedParameters.parse("t", "SELECT ? FROM t"));
        assertThrows(IllegalStateException.class, () -> NamedParameters.parse("t", "SELECT ?, :a"));
        assertThrows(IllegalStateException.class, () -> NamedParameters.parse("t", "SELECT 'open"));
    }
}
