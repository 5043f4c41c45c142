package io.sqlstreams.engine.system;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import javax.sql.DataSource;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.Sleeper;
import io.sqlstreams.engine.query.MigrationQueries.Versions;
import io.sqlstreams.engine.schema.DdlScope;
import io.sqlstreams.engine.schema.DirectedMigration;
import io.sqlstreams.engine.schema.DirectedMigration.Direction;
import io.sqlstreams.engine.schema.SchemaMigrator;
import io.sqlstreams.engine.sql.Database;
import io.sqlstreams.engine.sql.Sql;

/**
 * An installation's DDL without a client: its shared tables created and checked, the versions its scopes record
 * beside this build's, and a scope migrated up or down. Internal: the command-line tool's {@code migrate} verbs are
 * its one user.
 */
public final class InstallationDdl {
    /** A scope's recorded versions and this build's: the system scope, with no stream, or one stream's family. */
    public record ScopeVersions(String scope, String stream, int version, int minCompatibleVersion, int buildVersion) {
    }

    private final SchemaMigrator migrator;
    private final DirectedMigration migration;

    /** Over {@code dataSource} in {@code config}'s schema, with its retry policy and logger; checks the config. */
    public InstallationDdl(DataSource dataSource, ClientConfig config) {
        config.validate();
        Database database = new Database(dataSource, config.retry(), Sleeper.SYSTEM,
                new Diagnostics(config.logger(), Clock.systemUTC()));
        Sql sql = new Sql(config.schema());
        this.migrator = new SchemaMigrator(database, sql);
        this.migration = new DirectedMigration(database, sql);
    }

    /** This build's DDL version of each scope by its name: {@code system}, then {@code stream}. */
    public static Map<String, Integer> buildVersions() {
        Map<String, Integer> versions = new LinkedHashMap<>();
        for (DdlScope scope : DdlScope.values()) {
            versions.put(scope.wireName(), scope.buildVersion());
        }
        return versions;
    }

    /** True when the shared tables exist at a version this build reads; creates nothing. */
    public boolean installed() {
        return migrator.installed();
    }

    /**
     * Creates the schema and the shared tables when missing and returns the system row's id; SQL0022 or SQL0023 for
     * an installation at another version.
     */
    public long ensureSystem() {
        return migrator.ensureSystem();
    }

    /** The system scope's versions, then each stream's; empty when the schema holds no installation. */
    public Optional<List<ScopeVersions>> recorded() {
        return migrator.recorded().map(recorded -> {
            List<ScopeVersions> scopes = new ArrayList<>();
            scopes.add(scope(DdlScope.SYSTEM, null, recorded.system()));
            recorded.streams().forEach(stream -> scopes.add(scope(DdlScope.STREAM, stream.stream(),
                    stream.versions())));
            return scopes;
        });
    }

    private static ScopeVersions scope(DdlScope scope, String stream, Versions versions) {
        return new ScopeVersions(scope.wireName(), stream, versions.version(), versions.minCompatibleVersion(),
                scope.buildVersion());
    }

    /** Migrations that never lower a version. */
    public Migration up() {
        return new Migration(Direction.UP);
    }

    /** Migrations that never raise a version. */
    public Migration down() {
        return new Migration(Direction.DOWN);
    }

    /** One direction's migrations: each brings its scope to {@code to} and says how many scopes changed version. */
    public final class Migration {
        private final Direction direction;

        private Migration(Direction direction) {
            this.direction = direction;
        }

        public int system(int to) {
            return migration.system(direction, to);
        }

        public int streams(int to) {
            return migration.streams(direction, to);
        }

        /** SQL0005 when there is no such stream. */
        public int stream(String name, int to) {
            return migration.stream(name, direction, to);
        }
    }
}
