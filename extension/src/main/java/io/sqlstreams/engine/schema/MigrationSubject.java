package io.sqlstreams.engine.schema;

import java.sql.Connection;
import java.sql.SQLException;

import io.sqlstreams.engine.query.MigrationQueries;
import io.sqlstreams.engine.query.MigrationQueries.StepOutcome;
import io.sqlstreams.engine.query.MigrationQueries.Versions;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.engine.sql.Statement;

/** What a directed migration walks: the system scope ({@code ownerId} its system row) or one stream's family. */
record MigrationSubject(DdlScope scope, long ownerId, String description) {
    static MigrationSubject system(long systemId) {
        return new MigrationSubject(DdlScope.SYSTEM, systemId, "the system scope");
    }

    static MigrationSubject stream(long streamId, String name) {
        return new MigrationSubject(DdlScope.STREAM, streamId, "stream \"" + name + "\"");
    }

    Versions versions(MigrationQueries migrations, Connection connection) throws SQLException {
        return scope == DdlScope.SYSTEM ? migrations.systemVersions(connection)
                : migrations.streamVersions(connection, ownerId);
    }

    void record(MigrationQueries migrations, Connection connection, StepOutcome outcome) throws SQLException {
        if (scope == DdlScope.SYSTEM) {
            migrations.recordSystemStep(connection, ownerId, outcome);
        } else {
            migrations.recordStreamStep(connection, ownerId, outcome);
        }
    }

    /** A step's statement, rendered for this subject. */
    Statement statement(Sql sql, String name) {
        return scope == DdlScope.SYSTEM ? sql.statement(name) : sql.streamStatement(name, ownerId);
    }

    /** The table {@code step} alters, as named in this subject's schema. */
    String table(MigrationStep step) {
        return step.table().replace("{id}", Long.toString(ownerId));
    }
}
