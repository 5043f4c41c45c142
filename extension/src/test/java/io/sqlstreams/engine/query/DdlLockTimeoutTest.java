package io.sqlstreams.engine.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.engine.sql.Transactions;
import io.sqlstreams.engine.sql.TransientFailures;
import io.sqlstreams.testing.PostgresTest;

/**
 * The one DDL lock timeout: it bounds a DDL statement's wait for a lock, for one transaction, and gives a caller's
 * own timeout back.
 */
@PostgresTest
class DdlLockTimeoutTest extends EngineTestBase {
    private DdlLockTimeout ddlLockTimeout;
    private String table;

    @BeforeEach
    void createTable() throws SQLException {
        ddlLockTimeout = new DdlLockTimeout(new Sql(database.schema()));
        table = database.schema() + ".ddl_lock_probe";
        database.execute("CREATE TABLE IF NOT EXISTS " + table + " (id int)");
    }

    @Test
    void ddlUnderTheLimitGivesUpOnALockAReaderHoldsWithATransientFailure() throws SQLException {
        try (Connection reader = database.dataSource().getConnection();
             Connection ddl = database.dataSource().getConnection()) {
            reader.setAutoCommit(false);
            execute(reader, "SELECT count(*) FROM " + table);

            SQLException failure = assertTimeoutPreemptively(Duration.ofSeconds(30),
                    () -> catchThrowableOfType(() -> Transactions.run(ddl, tx -> {
                        ddlLockTimeout.apply(tx);
                        execute(tx, "ALTER TABLE " + table + " ADD COLUMN extra int");
                        return null;
                    }), SQLException.class), "the DDL waited for the reader's lock without a bound");

            assertThat(TransientFailures.state(failure)).isEqualTo("55P03");
            assertThat(TransientFailures.isTransient(failure)).isTrue();
            reader.rollback();
        }
    }

    @Test
    void theLimitHoldsForTheRestOfTheTransactionOnly() throws SQLException {
        try (Connection connection = database.dataSource().getConnection()) {
            String before = lockTimeout(connection);
            String inside = Transactions.run(connection, tx -> {
                ddlLockTimeout.apply(tx);
                return lockTimeout(tx);
            });
            assertThat(inside).isEqualTo("2s");
            assertThat(lockTimeout(connection)).isEqualTo(before);
        }
    }

    @Test
    void duringGivesTheCallersOwnTimeoutBackAfterTheWork() throws SQLException {
        try (Connection connection = database.dataSource().getConnection()) {
            Transactions.run(connection, tx -> {
                execute(tx, "SET LOCAL lock_timeout = '7s'");
                String inside = ddlLockTimeout.during(tx, this::lockTimeout);
                assertThat(inside).isEqualTo("2s");
                assertThat(lockTimeout(tx)).isEqualTo("7s");
                return null;
            });
        }
    }

    private String lockTimeout(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SHOW lock_timeout")) {
            row.next();
            return row.getString(1);
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
