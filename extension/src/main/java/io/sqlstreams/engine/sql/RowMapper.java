package io.sqlstreams.engine.sql;

import java.sql.ResultSet;
import java.sql.SQLException;

/** Maps the current row of a result set to a typed record; reads columns by name. */
@FunctionalInterface
public interface RowMapper<R> {
    R map(ResultSet row) throws SQLException;
}
