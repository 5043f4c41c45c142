package io.sqlstreams.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.system.InstallationDdl.ScopeVersions;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * The recorded DDL versions of an installation (the system scope, then each stream's family) measured against
 * this build's version of their scope: {@code migrate versions} prints them, {@code migrate status} adds each
 * scope's standing.
 */
final class MigrationReport {
    /** Where a scope stands against this build, from best to worst. */
    enum Standing {
        /** At this build's version of the scope. */
        CURRENT(true),
        /** Newer than this build, but every step is readable by it. */
        AHEAD(true),
        /** Older than this build: migrate it up (SQL0022). */
        BEHIND(false),
        /** Holds a step this build cannot read: upgrade the library (SQL0023). */
        TOO_NEW(false);

        final boolean usable;

        Standing(boolean usable) {
            this.usable = usable;
        }

        String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Standing of(ScopeVersions versions) {
            int build = versions.buildVersion();
            if (versions.minCompatibleVersion() > build) {
                return TOO_NEW;
            }
            if (versions.version() < build) {
                return BEHIND;
            }
            return versions.version() > build ? AHEAD : CURRENT;
        }
    }

    private final String schema;
    private final List<ScopeVersions> scopes;

    private MigrationReport(String schema, List<ScopeVersions> scopes) {
        this.schema = schema;
        this.scopes = scopes;
    }

    /** The installation's report; SQL0017 when the schema holds none. */
    static MigrationReport read(Installation installation) {
        List<ScopeVersions> scopes = installation.ddl().recorded()
                .orElseThrow(() -> new SqlStreamsException(Code.SQL0017, "schema " + installation.schema()
                        + " holds no sqlstreams installation: run 'sqlstreams migrate init' or 'sqlstreams system"
                        + " register'"));
        return new MigrationReport(installation.schema(), scopes);
    }

    /** The worst standing of any scope: too new, then behind, then ahead, else current. */
    Standing overall() {
        Standing worst = Standing.CURRENT;
        for (ScopeVersions scope : scopes) {
            Standing standing = Standing.of(scope);
            if (standing.compareTo(worst) > 0) {
                worst = standing;
            }
        }
        return worst;
    }

    TextTable table(boolean withStanding) {
        TextTable table = withStanding ? TextTable.withHeaders("SCOPE", "NAME", "VERSION", "MIN_COMPATIBLE", "STATUS")
                : TextTable.withHeaders("SCOPE", "NAME", "VERSION", "MIN_COMPATIBLE");
        for (ScopeVersions scope : scopes) {
            List<String> cells = new ArrayList<>(List.of(scope.scope(),
                    scope.stream() == null ? TextTable.NONE : scope.stream(),
                    String.valueOf(scope.version()),
                    String.valueOf(scope.minCompatibleVersion())));
            if (withStanding) {
                cells.add(Standing.of(scope).wireName());
            }
            table.row(cells);
        }
        return table;
    }

    JsonObject json(boolean withStanding) {
        JsonObjectBuilder document = Json.createObjectBuilder()
                .add("schema", schema)
                .add("build_versions", BuildVersions.json());
        if (withStanding) {
            document.add("status", overall().wireName()).add("usable", overall().usable);
        }
        JsonArrayBuilder streams = Json.createArrayBuilder();
        for (ScopeVersions scope : scopes) {
            JsonObjectBuilder entry = Json.createObjectBuilder();
            if (scope.stream() != null) {
                entry.add("stream", scope.stream());
            }
            entry.add("version", scope.version()).add("min_compatible_version", scope.minCompatibleVersion());
            if (withStanding) {
                entry.add("status", Standing.of(scope).wireName());
            }
            if (scope.stream() == null) {
                document.add("system", entry);
            } else {
                streams.add(entry);
            }
        }
        return document.add("streams", streams).build();
    }
}
