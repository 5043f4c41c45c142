package io.sqlstreams.engine.schema;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import io.sqlstreams.Code;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.query.DdlLockTimeout;
import io.sqlstreams.engine.query.MigrationQueries;
import io.sqlstreams.engine.query.MigrationQueries.StepOutcome;
import io.sqlstreams.engine.schema.DirectedMigration.Direction;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.engine.sql.Transactions;
import io.sqlstreams.engine.sql.TransientFailures;

/**
 * Walks one {@link MigrationSubject} to a version, one step per transaction, so completed steps stay applied. Each
 * transaction takes the migration lock without waiting (SQL0053 naming its holder), re-reads the recorded version
 * under it, runs the step's DDL under {@link DdlLockTimeout} and records the version reached. A failed step is
 * rolled back and then recorded as a failure; one that timed out waiting for its table is tried {@link #ATTEMPTS}
 * times in all, then refused with SQL0053 naming the session that holds the table.
 */
final class StepWalk {
    /** How often a step whose DDL timed out waiting for its table's lock is tried in all. */
    static final int ATTEMPTS = 3;

    private static final String LOCK_NOT_AVAILABLE = "55P03";

    private final Sql sql;
    private final MigrationQueries migrations;
    private final DdlLockTimeout timeout;

    StepWalk(Sql sql, MigrationQueries migrations) {
        this.sql = sql;
        this.migrations = migrations;
        this.timeout = new DdlLockTimeout(sql);
    }

    /** 1 when {@code subject} changed version on its way to {@code target}, 0 when it was there already. */
    int walk(Connection connection, MigrationSubject subject, Direction direction, int target) throws SQLException {
        int taken = 0;
        while (stepWithRetries(connection, subject, direction, target)) {
            taken++;
        }
        return taken == 0 ? 0 : 1;
    }

    /** Takes the next step towards {@code target}; false when the subject is at it. */
    private boolean stepWithRetries(Connection connection, MigrationSubject subject, Direction direction, int target)
            throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                return Transactions.run(connection, tx -> step(tx, subject, direction, target));
            } catch (StepFailure failure) {
                recordFailure(connection, subject, failure);
                if (!LOCK_NOT_AVAILABLE.equals(TransientFailures.state(failure.ddlFailure))) {
                    throw failure.ddlFailure;
                }
                if (attempt == ATTEMPTS) {
                    throw busy(connection, subject, failure);
                }
            }
        }
    }

    private boolean step(Connection tx, MigrationSubject subject, Direction direction, int target)
            throws SQLException {
        if (!migrations.tryLock(tx)) {
            throw new SqlStreamsException(Code.SQL0053, "another migration of schema " + sql.schema()
                    + " holds the migration lock: " + migrations.lockHolder(tx)
                    .orElse("a session that has let it go since") + "; run this again once it finishes");
        }
        int version = subject.versions(migrations, tx).version();
        if (version == target) {
            return false;
        }
        if (!direction.allows(version, target)) {
            throw new InvalidConfigurationException(List.of(new InvalidConfigurationException.Violation(
                    "migration target", target, "migrating " + direction.wireName() + " cannot go from "
                            + subject.description() + "'s DDL version " + version + " to " + target)));
        }
        DdlScope scope = subject.scope();
        MigrationStep step = scope.stepFrom(version, direction).orElseThrow(() -> new SqlStreamsException(
                version > scope.buildVersion() ? Code.SQL0023 : Code.SQL0022, subject.description()
                + " is at DDL version " + version + " and this build has no step to migrate it "
                + direction.wireName() + " to " + target + ": it knows " + scope.wireName() + " DDL versions 1 to "
                + scope.buildVersion()));
        int reached = direction == Direction.UP ? step.version() : step.version() - 1;
        StepOutcome outcome = StepOutcome.reached(reached, scope.minCompatibleVersionAt(reached));
        try {
            timeout.apply(tx);
            migrations.runStep(tx, subject.statement(sql, direction == Direction.UP ? step.up() : step.down()));
        } catch (SQLException failed) {
            throw new StepFailure(step, outcome, failed);
        }
        subject.record(migrations, tx, outcome);
        return true;
    }

    /** Records the failed attempt after its rollback, on its own; a failure to record joins the step's failure. */
    private void recordFailure(Connection connection, MigrationSubject subject, StepFailure failure) {
        try {
            subject.record(migrations, connection, new StepOutcome(failure.outcome.version(),
                    failure.outcome.minCompatibleVersion(), TransientFailures.describe(failure.ddlFailure)));
        } catch (SQLException unrecorded) {
            failure.ddlFailure.addSuppressed(unrecorded);
        }
    }

    private SqlStreamsException busy(Connection connection, MigrationSubject subject, StepFailure failure)
            throws SQLException {
        String table = subject.table(failure.step);
        return new SqlStreamsException(Code.SQL0053, subject.description() + " could not take its step to DDL version "
                + failure.outcome.version() + ": table " + sql.schema() + "." + table + " stayed locked through "
                + ATTEMPTS + " attempts of " + DdlLockTimeout.LIMIT.toSeconds() + " s each, held by "
                + migrations.tableLockHolder(connection, table).orElse("a session that has let it go since")
                + "; run this again once it finishes", failure.ddlFailure);
    }

    /** A step's DDL failed: carried out of its transaction, which rolls back, to be recorded and maybe retried. */
    private static final class StepFailure extends RuntimeException {
        private final MigrationStep step;
        private final StepOutcome outcome;
        private final SQLException ddlFailure;

        StepFailure(MigrationStep step, StepOutcome outcome, SQLException cause) {
            super(cause);
            this.step = step;
            this.outcome = outcome;
            this.ddlFailure = cause;
        }
    }
}
