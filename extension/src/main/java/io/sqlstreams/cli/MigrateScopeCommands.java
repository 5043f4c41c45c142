package io.sqlstreams.cli;

import java.util.function.Function;

import io.sqlstreams.engine.system.InstallationDdl;
import io.sqlstreams.engine.system.InstallationDdl.Migration;
import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sqlstreams migrate system|streams|stream up|down}: bring a DDL scope to the version {@code --to} names,
 * step by step; a scope at the target is left alone.
 */
final class MigrateScopeCommands {
    private MigrateScopeCommands() {
    }

    /** One direction of one scope: {@code --to N}, and the document {@code {stream?, to, migrated_count}}. */
    abstract static class Directed extends InstallationCommand {
        @Option(names = "--to", paramLabel = "N", required = true,
                description = "the DDL version to reach, from 1 to this build's version of the scope")
        private int to;

        private final Function<InstallationDdl, Migration> direction;

        Directed(Function<InstallationDdl, Migration> direction) {
            this.direction = direction;
        }

        /** Runs the migration of this command's scope; how many scopes changed version. */
        abstract int migrate(Migration migration, int to);

        /** The fields that name the scope, before {@code to}: the stream of {@code migrate stream}, else none. */
        JsonObjectBuilder scope() {
            return Json.createObjectBuilder();
        }

        @Override
        int run(Output output, Installation installation) {
            int migrated = migrate(direction.apply(installation.ddl()), to);
            output.object(scope().add("to", to).add("migrated_count", migrated).build());
            return ExitCodes.OK;
        }
    }

    /** A scope that takes no argument, the parent of its {@link WholeUp} and {@link WholeDown}. */
    interface WholeScope {
        int migrate(Migration migration, int to);
    }

    /** A direction of the {@link WholeScope} it is the subcommand of. */
    abstract static class WholeDirected extends Directed {
        WholeDirected(Function<InstallationDdl, Migration> direction) {
            super(direction);
        }

        @Override
        int migrate(Migration migration, int to) {
            return ((WholeScope) spec().parent().userObject()).migrate(migration, to);
        }
    }

    @Command(name = "up", description = "Bring the scope up to --to; refused where it is above it.")
    static final class WholeUp extends WholeDirected {
        WholeUp() {
            super(InstallationDdl::up);
        }
    }

    @Command(name = "down", description = "Bring the scope down to --to; refused where it is below it.")
    static final class WholeDown extends WholeDirected {
        WholeDown() {
            super(InstallationDdl::down);
        }
    }

    @Command(name = "system", description = "Migrate the system scope (the shared tables) up or down.",
            subcommands = {WholeUp.class, WholeDown.class})
    static final class SystemScope implements WholeScope {
        @Override
        public int migrate(Migration migration, int to) {
            return migration.system(to);
        }
    }

    @Command(name = "streams", description = "Migrate every stream's table family up or down; every stream is"
            + " tried and the refusals are reported together.", subcommands = {WholeUp.class, WholeDown.class})
    static final class StreamsScope implements WholeScope {
        @Override
        public int migrate(Migration migration, int to) {
            return migration.streams(to);
        }
    }

    @Command(name = "stream", description = "Migrate one stream's table family up or down.",
            subcommands = {StreamUp.class, StreamDown.class})
    static final class StreamScope {
    }

    /** {@code migrate stream up|down <stream>}. */
    abstract static class StreamDirected extends Directed {
        @Parameters(index = "0", paramLabel = "<stream>")
        private String stream;

        StreamDirected(Function<InstallationDdl, Migration> direction) {
            super(direction);
        }

        @Override
        int migrate(Migration migration, int to) {
            return migration.stream(stream, to);
        }

        @Override
        JsonObjectBuilder scope() {
            return Json.createObjectBuilder().add("stream", stream);
        }
    }

    @Command(name = "up", description = "Bring the stream up to --to; refused when it is above it.")
    static final class StreamUp extends StreamDirected {
        StreamUp() {
            super(InstallationDdl::up);
        }
    }

    @Command(name = "down", description = "Bring the stream down to --to; refused when it is below it.")
    static final class StreamDown extends StreamDirected {
        StreamDown() {
            super(InstallationDdl::down);
        }
    }
}
