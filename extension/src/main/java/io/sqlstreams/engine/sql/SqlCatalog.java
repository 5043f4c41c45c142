package io.sqlstreams.engine.sql;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every named SQL statement of the engine, loaded once from the {@code .sql} resources beside this class.
 * A resource holds blocks that each start with a {@code -- name: <statement>} line; other comment lines
 * are kept out. Names are unique across all resources. Parameters are named ({@code :group_id}) and resolved to
 * JDBC positions once, here. A block that starts with {@code -- fragment: <name>} is no statement but a piece of
 * SQL that statements include as {@code {fragment:<name>}}, so one rule is written once and still planned inline;
 * its named parameters become the including statement's. A fragment may include other fragments, from any resource.
 */
public final class SqlCatalog {
    private static final List<String> RESOURCES = List.of(
            "control_plane.sql", "migration.sql", "system_migration.sql", "stream_migration.sql", "stream_family.sql",
            "stream.sql", "produce.sql", "partition.sql", "key.sql", "consumer.sql", "claim.sql", "exception.sql",
            "instance.sql", "key_lease.sql", "janitor.sql", "manager.sql", "system.sql", "wakeup.sql", "metrics.sql",
            "metric_series.sql", "alert.sql", "schedule.sql", "operator.sql", "stream_health.sql");
    private static final Pattern BLOCK_LINE = Pattern.compile("^-- (name|fragment): ([a-z_0-9]+)\\s*$");
    private static final Pattern INCLUDE = Pattern.compile("\\{fragment:([a-z_0-9]+)}");
    private static final SqlCatalog INSTANCE = load();

    private final Map<String, NamedParameters.Parsed> templates;

    private SqlCatalog(Map<String, NamedParameters.Parsed> templates) {
        this.templates = Map.copyOf(templates);
    }

    public static SqlCatalog instance() {
        return INSTANCE;
    }

    /** The statement's template, with its {@code {schema}} and other placeholders still in it. */
    NamedParameters.Parsed template(String name) {
        NamedParameters.Parsed template = templates.get(name);
        if (template == null) {
            throw new IllegalArgumentException("no SQL statement named " + name);
        }
        return template;
    }

    /** Every statement name of the catalogue. */
    public Set<String> names() {
        return new TreeSet<>(templates.keySet());
    }

    private static SqlCatalog load() {
        Map<String, String> statements = new HashMap<>();
        Map<String, String> fragments = new HashMap<>();
        for (String resource : RESOURCES) {
            parse(resource, read(resource), statements, fragments);
        }
        return new SqlCatalog(templates(statements, fragments));
    }

    /** Each statement with its fragments included and its parameters resolved; an unused fragment is refused. */
    static Map<String, NamedParameters.Parsed> templates(Map<String, String> statements,
                                                         Map<String, String> fragments) {
        Map<String, NamedParameters.Parsed> templates = new HashMap<>();
        Set<String> included = new HashSet<>();
        statements.forEach((name, sql) ->
                templates.put(name, NamedParameters.parse(name, include(name, sql, fragments, included, List.of()))));
        Set<String> unused = new TreeSet<>(fragments.keySet());
        unused.removeAll(included);
        if (!unused.isEmpty()) {
            throw new IllegalStateException("SQL fragments no statement includes: " + unused);
        }
        return templates;
    }

    /** {@code sql} with its fragments included; {@code within} the fragments being included around it. */
    private static String include(String statement, String sql, Map<String, String> fragments, Set<String> used,
                                  List<String> within) {
        Matcher include = INCLUDE.matcher(sql);
        StringBuilder expanded = new StringBuilder();
        while (include.find()) {
            String name = include.group(1);
            String fragment = fragments.get(name);
            if (fragment == null) {
                throw new IllegalStateException("SQL statement " + statement + " includes an unknown fragment "
                        + name);
            }
            if (within.contains(name)) {
                throw new IllegalStateException("SQL fragment " + name + " includes itself (in statement "
                        + statement + ")");
            }
            used.add(name);
            List<String> nested = new ArrayList<>(within);
            nested.add(name);
            include.appendReplacement(expanded,
                    Matcher.quoteReplacement(include(statement, fragment, fragments, used, nested)));
        }
        include.appendTail(expanded);
        return expanded.toString();
    }

    private static String read(String resource) {
        try (InputStream in = SqlCatalog.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("SQL resource missing from the class path: " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void parse(String resource, String text, Map<String, String> statements,
                              Map<String, String> fragments) {
        Map<String, String> current = null;
        String name = null;
        StringBuilder body = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            Matcher block = BLOCK_LINE.matcher(line);
            if (block.matches()) {
                store(resource, name, body, current);
                current = block.group(1).equals("name") ? statements : fragments;
                name = block.group(2);
                body.setLength(0);
            } else if (name != null && !line.stripLeading().startsWith("--")) {
                body.append(line).append('\n');
            }
        }
        store(resource, name, body, current);
    }

    private static void store(String resource, String name, StringBuilder body, Map<String, String> into) {
        if (name == null) {
            return;
        }
        String sql = body.toString().strip();
        if (sql.endsWith(";")) {
            sql = sql.substring(0, sql.length() - 1);
        }
        if (into.putIfAbsent(name, sql) != null) {
            throw new IllegalStateException("SQL block " + name + " is declared twice (again in " + resource + ")");
        }
    }
}
