package io.sqlstreams.engine.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns a statement written with named parameters ({@code :group_id}) into JDBC text ({@code ?}) and the name at
 * each position. A name may appear any number of times; it is bound once. Casts ({@code ::uuid}), quoted literals
 * and quoted identifiers are left alone. A bare {@code ?} placeholder is refused: every parameter has a name.
 */
final class NamedParameters {
    private NamedParameters() {
    }

    /** The parsed form of one statement template. */
    record Parsed(String text, List<String> positions) {
    }

    static Parsed parse(String statement, String sql) {
        StringBuilder text = new StringBuilder(sql.length());
        List<String> positions = new ArrayList<>();
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                int end = closingQuote(statement, sql, i, c);
                text.append(sql, i, end + 1);
                i = end + 1;
            } else if (c == ':' && i + 1 < sql.length() && sql.charAt(i + 1) == ':') {
                text.append("::");
                i += 2;
            } else if (c == ':' && i + 1 < sql.length() && isNameStart(sql.charAt(i + 1))) {
                int end = i + 1;
                while (end < sql.length() && isNamePart(sql.charAt(end))) {
                    end++;
                }
                positions.add(sql.substring(i + 1, end));
                text.append('?');
                i = end;
            } else if (c == '?') {
                throw new IllegalStateException("SQL statement " + statement
                        + " has a positional '?'; name the parameter");
            } else {
                text.append(c);
                i++;
            }
        }
        return new Parsed(text.toString(), List.copyOf(positions));
    }

    private static int closingQuote(String statement, String sql, int open, char quote) {
        int i = open + 1;
        while (i < sql.length()) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i;
            }
            i++;
        }
        throw new IllegalStateException("SQL statement " + statement + " has an unclosed " + quote + " quote");
    }

    private static boolean isNameStart(char c) {
        return c >= 'a' && c <= 'z' || c == '_';
    }

    private static boolean isNamePart(char c) {
        return isNameStart(c) || c >= '0' && c <= '9';
    }
}
