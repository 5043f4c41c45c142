package io.sqlstreams.engine.sql;

import java.util.regex.Pattern;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.InvalidNameException;

/**
 * The engine's statements rendered for one installation schema. The schema name, a stream id and partition
 * bounds are the only text ever substituted into SQL: the schema is validated against
 * {@link ClientConfig#SCHEMA_NAME} and the rest are numbers. Every value is a bind parameter.
 */
public final class Sql {
    private static final Pattern LEFTOVER = Pattern.compile("\\{[a-z]+}");

    private final SqlCatalog catalog;
    private final String schema;

    public Sql(String schema) {
        if (schema == null || !ClientConfig.SCHEMA_NAME.matcher(schema).matches()) {
            throw new InvalidNameException("schema", schema, "must match " + ClientConfig.SCHEMA_NAME.pattern());
        }
        this.catalog = SqlCatalog.instance();
        this.schema = schema;
    }

    public String schema() {
        return schema;
    }

    /** A statement on the shared tables. */
    public Statement statement(String name) {
        return render(name, text(name));
    }

    /** A statement on one stream's table family. */
    public Statement streamStatement(String name, long streamId) {
        return render(name, text(name).replace("{id}", Long.toString(requireId(streamId))));
    }

    /** A statement on one partition of a stream's log, covering ids {@code [low, high)}. */
    public Statement partitionStatement(String name, long streamId, long partition, long low, long high) {
        return render(name, text(name)
                .replace("{id}", Long.toString(requireId(streamId)))
                .replace("{partition}", Long.toString(requireId(partition)))
                .replace("{low}", Long.toString(low))
                .replace("{high}", Long.toString(high)));
    }

    private String text(String name) {
        return catalog.template(name).text().replace("{schema}", schema);
    }

    private Statement render(String name, String text) {
        if (LEFTOVER.matcher(text).find()) {
            throw new IllegalStateException("SQL statement " + name + " has a placeholder this call does not fill");
        }
        return new Statement(name, text, catalog.template(name).positions());
    }

    private static long requireId(long id) {
        if (id < 0) {
            throw new IllegalArgumentException("ids are never negative: " + id);
        }
        return id;
    }
}
