package io.sqlstreams.engine.sql;

import java.sql.Connection;
import java.sql.SQLException;

/** A unit of database work on one borrowed connection. */
@FunctionalInterface
public interface SqlWork<R> {
    R run(Connection connection) throws SQLException;
}
