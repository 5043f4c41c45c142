package io.sqlstreams.cli;

import io.sqlstreams.engine.schema.SchemaMigrator;
import jakarta.json.Json;
import picocli.CommandLine.Command;

/** {@code sqlstreams migrate …}: the installation's DDL. */
@Command(name = "migrate", description = "Create the installation's tables.", subcommands = MigrateCommands.Init.class)
final class MigrateCommands {
    private MigrateCommands() {
    }

    @Command(name = "init", description = "Create the schema and the shared tables when missing; safe to repeat.")
    static final class Init extends InstallationCommand {
        @Override
        int run(Output output, Installation installation) {
            SchemaMigrator migrator = installation.migrator();
            boolean created = !migrator.installed();
            long systemId = migrator.ensureSystem();
            if (output.json()) {
                output.json(Json.createObjectBuilder()
                        .add("schema", installation.schema())
                        .add("version", SchemaMigrator.BUILD_VERSION)
                        .add("system_id", systemId)
                        .add("created", created)
                        .build());
            } else {
                String version = " at DDL version " + SchemaMigrator.BUILD_VERSION;
                output.line(created ? "created the installation in schema " + installation.schema() + version
                        : "schema " + installation.schema() + " already holds the installation" + version);
            }
            return ExitCodes.OK;
        }
    }
}
