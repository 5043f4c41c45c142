package io.sqlstreams.cli;

import io.sqlstreams.engine.system.InstallationDdl;
import jakarta.json.Json;
import picocli.CommandLine.Command;

/** {@code sqlstreams migrate …}: the installation's DDL. */
@Command(name = "migrate", description = "Create the installation's tables, compare their DDL versions with this"
        + " build's and migrate them up or down.", subcommands = {MigrateCommands.Init.class,
        MigrateCommands.ShowVersions.class, MigrateCommands.Status.class, MigrateScopeCommands.SystemScope.class,
        MigrateScopeCommands.StreamsScope.class, MigrateScopeCommands.StreamScope.class})
final class MigrateCommands {
    private MigrateCommands() {
    }

    @Command(name = "init", description = "Create the schema and the shared tables when missing; safe to repeat.")
    static final class Init extends InstallationCommand {
        @Override
        int run(Output output, Installation installation) {
            InstallationDdl ddl = installation.ddl();
            boolean created = !ddl.installed();
            long systemId = ddl.ensureSystem();
            if (output.json()) {
                output.json(Json.createObjectBuilder()
                        .add("schema", installation.schema())
                        .add("build_versions", BuildVersions.json())
                        .add("system_id", systemId)
                        .add("created", created)
                        .build());
            } else {
                String build = "; this build: " + BuildVersions.text();
                output.line(created ? "created the installation in schema " + installation.schema() + build
                        : "schema " + installation.schema() + " already holds the installation" + build);
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "versions", description = "Show this build's DDL versions and the versions the installation"
            + " records: the system scope's and each stream's, with the oldest library version each admits.")
    static final class ShowVersions extends InstallationCommand {
        @Override
        int run(Output output, Installation installation) {
            MigrationReport report = MigrationReport.read(installation);
            if (output.json()) {
                output.json(report.json(false));
            } else {
                output.line("this build: " + BuildVersions.text());
                output.table(report.table(false));
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "status", description = "Say whether the installation is current, ahead (newer but readable),"
            + " behind (migrate it up) or too new (upgrade the library) for this build, scope by scope. Exit 4 when"
            + " this build cannot use it.")
    static final class Status extends InstallationCommand {
        @Override
        int run(Output output, Installation installation) {
            MigrationReport report = MigrationReport.read(installation);
            MigrationReport.Standing overall = report.overall();
            if (output.json()) {
                output.json(report.json(true));
            } else {
                output.line("this build: " + BuildVersions.text() + "; the installation is "
                        + overall.wireName().replace('_', ' ') + (overall.usable ? "" : ": this build cannot use it"));
                output.table(report.table(true));
            }
            return overall.usable ? ExitCodes.OK : ExitCodes.FAILED;
        }
    }
}
