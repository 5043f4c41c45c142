package io.sqlstreams.engine.sql;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
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
 * JDBC positions once, here.
 */
public final class SqlCatalog {
    private static final List<String> RESOURCES = List.of(
            "control_plane.sql", "migration.sql", "stream_family.sql", "stream.sql", "produce.sql",
            "partition.sql", "key.sql", "consumer.sql", "claim.sql", "exception.sql", "instance.sql", "key_lease.sql");
    private static final Pattern NAME_LINE = Pattern.compile("^-- name: ([a-z_0-9]+)\\s*$");
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
        Map<String, NamedParameters.Parsed> templates = new HashMap<>();
        for (String resource : RESOURCES) {
            parse(resource, read(resource), templates);
        }
        return new SqlCatalog(templates);
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

    private static void parse(String resource, String text, Map<String, NamedParameters.Parsed> into) {
        String current = null;
        StringBuilder body = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            Matcher name = NAME_LINE.matcher(line);
            if (name.matches()) {
                store(resource, current, body, into);
                current = name.group(1);
                body.setLength(0);
            } else if (current != null && !line.stripLeading().startsWith("--")) {
                body.append(line).append('\n');
            }
        }
        store(resource, current, body, into);
    }

    private static void store(String resource, String name, StringBuilder body,
                              Map<String, NamedParameters.Parsed> into) {
        if (name == null) {
            return;
        }
        String sql = body.toString().strip();
        if (sql.endsWith(";")) {
            sql = sql.substring(0, sql.length() - 1);
        }
        if (into.putIfAbsent(name, NamedParameters.parse(name, sql)) != null) {
            throw new IllegalStateException("SQL statement " + name + " is declared twice (again in " + resource + ")");
        }
    }
}
