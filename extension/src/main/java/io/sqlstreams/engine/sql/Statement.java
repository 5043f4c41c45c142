package io.sqlstreams.engine.sql;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One catalogued statement rendered for an installation: its JDBC text and the parameter name at each
 * {@code ?} position, in order. {@link BoundStatement} binds it by name.
 */
public record Statement(String name, String text, List<String> positions) {
    public Statement {
        positions = List.copyOf(positions);
    }

    /** Each parameter name once, in order of first appearance. */
    public Set<String> parameters() {
        return new LinkedHashSet<>(positions);
    }
}
