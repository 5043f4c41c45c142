package io.sqlstreams.engine.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class SqlCatalogTest {
    @Test
    void aFragmentIsIncludedWhereverNamedAndItsParametersBecomeTheStatements() {
        Map<String, NamedParameters.Parsed> templates = SqlCatalog.templates(
                Map.of("pick", "SELECT id FROM t WHERE id > :low AND {fragment:visible}",
                        "drop", "DELETE FROM t WHERE {fragment:visible} AND id = :id"),
                Map.of("visible", "t.group_id = :group_id"));
        assertEquals("SELECT id FROM t WHERE id > ? AND t.group_id = ?", templates.get("pick").text());
        assertEquals(List.of("low", "group_id"), templates.get("pick").positions());
        assertEquals("DELETE FROM t WHERE t.group_id = ? AND id = ?", templates.get("drop").text());
        assertEquals(List.of("group_id", "id"), templates.get("drop").positions());
    }

    @Test
    void aFragmentIncludesAnotherAndACycleIsRefused() {
        Map<String, NamedParameters.Parsed> templates = SqlCatalog.templates(
                Map.of("pick", "SELECT * FROM ({fragment:outer}) o"),
                Map.of("outer", "SELECT id FROM t WHERE {fragment:inner}", "inner", "t.group_id = :group_id"));
        assertEquals("SELECT * FROM (SELECT id FROM t WHERE t.group_id = ?) o", templates.get("pick").text());
        IllegalStateException cycle = assertThrows(IllegalStateException.class, () -> SqlCatalog.templates(
                Map.of("pick", "SELECT {fragment:a}"), Map.of("a", "{fragment:b}", "b", "{fragment:a}")));
        assertTrue(cycle.getMessage().contains("includes itself"), cycle.getMessage());
    }

    @Test
    void anUnknownFragmentAndAnUnusedOneAreRefused() {
        IllegalStateException unknown = assertThrows(IllegalStateException.class, () -> SqlCatalog.templates(
                Map.of("pick", "SELECT 1 WHERE {fragment:missing}"), Map.of()));
        assertTrue(unknown.getMessage().contains("missing"), unknown.getMessage());
        IllegalStateException unused = assertThrows(IllegalStateException.class, () -> SqlCatalog.templates(
                Map.of("pick", "SELECT 1"), Map.of("orphan", "true")));
        assertTrue(unused.getMessage().contains("orphan"), unused.getMessage());
    }

    @Test
    void theDeliverableRowRuleIsWrittenOnceAndReadAndQuarantineBothUseIt() {
        String read = SqlCatalog.instance().template("read_range").text();
        String quarantine = SqlCatalog.instance().template("quarantine_range").text();
        String rule = "m.routing_key ~ b.pattern_regex";
        assertTrue(read.contains(rule), read);
        assertTrue(quarantine.contains(rule), quarantine);
        assertFalse(read.contains("{fragment:"), read);
        assertFalse(SqlCatalog.instance().names().contains("deliverable_row"), "a fragment is no statement");
    }
}
