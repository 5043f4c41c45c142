package io.sqlstreams.engine.system;

import java.sql.Connection;
import java.sql.SQLException;
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
 * {@code system destroy}: drops every stream's table family, the shared tables, and the schema when nothing else
 * is left in it, in one transaction under the migrations' advisory lock, so it never races a process creating the
 * installation.
 */
final class InstallationRemoval {
    private final Engine engine;
    private final MigrationQueries migrations;
    private final SystemQueries system;
    private final StreamQueries streams;

    InstallationRemoval(Engine engine) {
        this.engine = engine;
        this.migrations = new MigrationQueries(engine.sql());
        this.system = new SystemQueries(engine.sql());
        this.streams = new StreamQueries(engine.sql());
    }

    void destroy(boolean force) {
        String schema = engine.sql().schema();
        if (!engine.config().allowDestroy()) {
            throw new SqlStreamsException(Code.SQL0008, "destroying the installation in schema " + schema
                    + " needs ClientConfig.allowDestroy");
        }
        engine.database().autoCommit("destroying the installation in schema " + schema, connection -> {
            return Transactions.run(connection, tx -> {
                migrations.lock(tx);
                dropEverything(tx, force);
                return null;
            });
        });
        engine.migrator().forget();
    }

    private void dropEverything(Connection connection, boolean force) throws SQLException {
        if (!migrations.migrationLogExists(connection)) {
            throw EngineSystemHandle.notInstalled(engine.sql().schema());
        }
        new DdlLockTimeout(engine.sql()).apply(connection);
        List<Long> streamIds = system.streamIds(connection);
        if (!force) {
            refuseWhileInUse(connection);
        }
        for (long streamId : streamIds) {
            streams.dropFamily(connection, streamId);
        }
        system.dropControlPlane(connection);
        system.dropSchemaIfEmpty(connection);
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
}
