package io.sqlstreams.engine.system;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.DdlLockTimeout;
import io.sqlstreams.engine.query.MigrationQueries;
import io.sqlstreams.engine.query.StreamQueries;
import io.sqlstreams.engine.query.SystemQueries;
import io.sqlstreams.engine.sql.Transactions;

/**
 * {@code system destroy}: drops the installation one stream per transaction (its table family with its rows in the
 * shared tables, as {@code stream destroy} does), then the shared tables and the schema when nothing else is left
 * in it, in a last transaction. One transaction never locks more than one stream's tables, so the destroy does not
 * run out of the server's lock table however many streams there are. Every transaction takes the migrations'
 * advisory lock, so none races a process creating the installation, and checks the installation afresh.
 *
 * <p>Every transaction leaves a whole installation behind, only with fewer streams: a destroy that stops part way
 * (a lock it could not get, a lost connection) is reported with its cause's code, saying how far it got, and the
 * installation goes on working meanwhile (a dropped stream is SQL0005 like any destroyed one); running the destroy
 * again goes on with the streams that are left. Progress is logged as SQL0163.
 */
final class InstallationRemoval {
    /** How often a long destroy logs how far it got, besides its first and last lines. */
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);

    private final Engine engine;
    private final MigrationQueries migrations;
    private final SystemQueries system;
    private final StreamQueries streams;
    private final Clock clock;

    InstallationRemoval(Engine engine) {
        this.engine = engine;
        this.migrations = new MigrationQueries(engine.sql());
        this.system = new SystemQueries(engine.sql());
        this.streams = new StreamQueries(engine.sql());
        this.clock = engine.environment().clock();
    }

    void destroy(boolean force) {
        String schema = engine.sql().schema();
        if (!engine.config().allowDestroy()) {
            throw new SqlStreamsException(Code.SQL0008, "destroying the installation in schema " + schema
                    + " needs ClientConfig.allowDestroy");
        }
        Progress progress = new Progress(schema, clock.instant());
        try {
            for (Step step = nextStep(force); !step.finished(); step = nextStep(force)) {
                progress.dropped(step.left());
            }
        } catch (SqlStreamsException failure) {
            throw progress.stopped(failure);
        } finally {
            engine.migrator().forget();
        }
        progress.finished();
    }

    /** One transaction: drops the first stream left, or the shared tables and the schema once none is. */
    private Step nextStep(boolean force) {
        return engine.database().autoCommit("destroying the installation in schema " + engine.sql().schema(),
                connection -> Transactions.run(connection, tx -> {
                    migrations.lock(tx);
                    return dropNext(tx, force);
                }));
    }

    private Step dropNext(Connection connection, boolean force) throws SQLException {
        if (!migrations.migrationLogExists(connection)) {
            throw EngineSystemHandle.notInstalled(engine.sql().schema());
        }
        new DdlLockTimeout(engine.sql()).apply(connection);
        if (!force) {
            refuseWhileInUse(connection);
        }
        List<Long> streamIds = system.streamIds(connection);
        if (streamIds.isEmpty()) {
            system.dropControlPlane(connection);
            system.dropSchemaIfEmpty(connection);
            return new Step(true, 0);
        }
        long streamId = streamIds.get(0);
        streams.dropFamily(connection, streamId);
        streams.delete(connection, streamId);
        return new Step(false, streamIds.size() - 1);
    }

    private void refuseWhileInUse(Connection connection) throws SQLException {
        long live = system.liveInstances(connection);
        if (live > 0) {
            throw new SqlStreamsException(Code.SQL0010, live + " worker instance(s) of the installation in schema "
                    + engine.sql().schema() + " are still live: stop every process using it, or destroy with force");
        }
        long userStreams = system.userStreams(connection);
        if (userStreams > 0) {
            throw new SqlStreamsException(Code.SQL0011, userStreams + " stream(s) are still registered in schema "
                    + engine.sql().schema() + ": destroy them first, or destroy the installation with force");
        }
    }

    /** What one transaction did: dropped a stream, leaving {@code left}, or finished the installation. */
    private record Step(boolean finished, long left) {
    }

    /** How far this destroy got, for its SQL0163 lines and for the error of one that stops part way. */
    private final class Progress {
        private final String schema;
        private final Instant began;
        private Instant logged;
        private long dropped;
        private long left;

        Progress(String schema, Instant began) {
            this.schema = schema;
            this.began = began;
            this.logged = began;
        }

        void dropped(long streamsLeft) {
            dropped++;
            left = streamsLeft;
            Instant now = clock.instant();
            if (dropped == 1 || !now.isBefore(logged.plus(PROGRESS_EVERY))) {
                logged = now;
                engine.diagnostics().event(Code.SQL0163, "destroying the installation in schema " + schema
                        + ": dropped " + dropped + " stream(s), one per transaction, " + left + " left");
            }
        }

        void finished() {
            engine.diagnostics().event(Code.SQL0163, "destroyed the installation in schema " + schema + ": "
                    + dropped + " stream(s) and the shared tables in "
                    + Duration.between(began, clock.instant()).toMillis() + " ms");
        }

        /**
         * The failure as it was when nothing was dropped yet; otherwise the same code, saying how far the destroy
         * got and that running it again finishes it.
         */
        SqlStreamsException stopped(SqlStreamsException failure) {
            if (dropped == 0) {
                return failure;
            }
            return new SqlStreamsException(failure.code(), "destroying the installation in schema " + schema
                    + " stopped part way: " + dropped + " stream(s) are dropped, " + left + " and the shared tables"
                    + " are still there; run the destroy again to finish it. The cause: " + failure.getMessage(),
                    failure);
        }
    }
}
