package io.sqlstreams.engine.wakeup;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

import javax.sql.DataSource;

import io.sqlstreams.engine.query.WakeupQueries;

/**
 * Proves, before a connection issues {@code LISTEN}, that it keeps one server process for its whole life. Behind a
 * transaction-mode pooler (PgBouncer) each transaction may run on another server process: a {@code LISTEN} would stay
 * registered on a process that other clients then use, its notifications would reach whoever holds it (and pile up
 * unread in their drivers), and the listener would receive nothing. The check: while a second connection holds a
 * transaction open, the listening connection asks again which process serves it. A direct or session-pooled
 * connection always names the same process, and never the one the second connection holds; a transaction-pooled
 * one is served by whichever process is free, which the pooler's most-recently-used order makes the one the second
 * connection just took.
 */
final class BackendPinning {
    private static final int ROUNDS = 3;
    private static final Duration WAIT_FOR_A_BACKEND = Duration.ofSeconds(5);

    private final DataSource dataSource;
    private final WakeupQueries queries;

    BackendPinning(DataSource dataSource, WakeupQueries queries) {
        this.dataSource = dataSource;
        this.queries = queries;
    }

    /** Throws {@link ListeningConnection.Unsupported} when {@code listening} was served by more than one process. */
    void verify(Connection listening) throws SQLException, ListeningConnection.Unsupported {
        int pid = queries.backendPid(listening, WAIT_FOR_A_BACKEND);
        for (int round = 0; round < ROUNDS; round++) {
            try (Connection other = dataSource.getConnection()) {
                other.setAutoCommit(false);
                try {
                    int held = queries.backendPid(other, WAIT_FOR_A_BACKEND);
                    if (held == pid || queries.backendPid(listening, WAIT_FOR_A_BACKEND) != pid) {
                        throw new ListeningConnection.Unsupported("its connections do not keep one server process"
                                + " (a pooler in transaction mode, such as PgBouncer's, runs each transaction on"
                                + " whichever is free), so a LISTEN would be left on a process other clients use",
                                null);
                    }
                } finally {
                    other.rollback();
                }
            }
        }
    }
}
