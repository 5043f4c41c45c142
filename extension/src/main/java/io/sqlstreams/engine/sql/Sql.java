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
    public String get(String name) {
        return checked(name, catalog.template(name).replace("{schema}", schema));
    }

    /** A statement on one stream's table family. */
    public String forStream(String name, long streamId) {
        return checked(name, catalog.template(name).replace("{schema}", schema)
                .replace("{id}", Long.toString(requireId(streamId))));
    }

    /** A statement on one partition of a stream's log, covering ids {@code [low, high)}. */
    public String forPartition(String name, long streamId, long partition, long low, long high) {
        return checked(name, catalog.template(name).replace("{schema}", schema)
                .replace("{id}", Long.toString(requireId(streamId)))
                .replace("{partition}", Long.toString(requireId(partition)))
                .replace("{low}", Long.toString(low))
                .replace("{high}", Long.toString(high)));
    }

    private static long requireId(long id) {
        if (id < 0) {
            throw new IllegalArgumentException("ids are never negative: " + id);
        }
        return id;
    }

    private static String checked(String name, String sql) {
        if (LEFTOVER.matcher(sql).find()) {
            throw new IllegalStateException("SQL statement " + name + " has a placeholder this call does not fill");
        }
        return sql;
    }
}
