package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.SQLException;

import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;

/** The commit announcements that wake idle consume sessions: one notification channel, listened to per client. */
public final class WakeupQueries {
    private final Sql sql;

    public WakeupQueries(Sql sql) {
        this.sql = sql;
    }

    /** Sends {@code payload} to every listener, in the connection's own (auto-commit) transaction. */
    public void announce(Connection connection, String payload) throws SQLException {
        try (BoundStatement announce = BoundStatement.prepare(connection, sql.statement("announce_commits"))) {
            announce.bind("payload", payload).queryOne(row -> true);
        }
    }

    public void listen(Connection connection) throws SQLException {
        execute(connection, "listen_for_commits");
    }

    public void stopListening(Connection connection) throws SQLException {
        execute(connection, "stop_listening_for_commits");
    }

    /** The server process that runs this statement. */
    public int backendPid(Connection connection) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("backend_pid"))) {
            return query.querySingle(row -> row.getInt("pid"));
        }
    }

    private void execute(Connection connection, String name) throws SQLException {
        try (BoundStatement statement = BoundStatement.prepare(connection, sql.statement(name))) {
            statement.update();
        }
    }
}
