package io.sqlstreams.cli;

import java.util.Map;

import io.sqlstreams.ClientConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;

/**
 * The root of the command tree. It owns the options every command accepts, before or after its name:
 * where PostgreSQL is, which installation schema, and the output format.
 */
@Command(name = "sqlstreams", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT,
        versionProvider = SqlStreamsCommand.Version.class,
        description = "Reads and explains a sqlstreams installation in PostgreSQL, registers, migrates and destroys"
                + " it, switches its streams' maintenance workers, reads, runs and switches its schedules, reads its"
                + " retained metrics, and runs its system manager.",
        subcommands = {StreamCommands.class, ConsumerCommands.class, SystemCommands.class, MigrateCommands.class,
                MetricCommands.class, AlertCommands.class, ScheduleCommands.class, ManagerCommands.class,
                ExplainCommand.class})
final class SqlStreamsCommand {
    static final String URL_VARIABLE = "SQLSTREAMS_URL";
    static final String SCHEMA_VARIABLE = "SQLSTREAMS_SCHEMA";

    private final Map<String, String> environment;
    private final Prompt prompt;
    private final Installation.ClientFactory clients;

    @Option(names = "--url", paramLabel = "URL", scope = ScopeType.INHERIT,
            description = "PostgreSQL URL: jdbc:postgresql://host:port/db?user=… or postgres://user:password@host/db"
                    + " (default: $" + URL_VARIABLE + ")")
    private String url;

    @Option(names = "--schema", paramLabel = "SCHEMA", scope = ScopeType.INHERIT,
            description = "installation schema (default: $" + SCHEMA_VARIABLE + ", else " + ClientConfig.DEFAULT_SCHEMA
                    + ")")
    private String schema;

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", scope = ScopeType.INHERIT,
            completionCandidates = OutputFormat.Names.class,
            description = "text (aligned tables, the default) or json")
    private OutputFormat output = OutputFormat.TEXT;

    SqlStreamsCommand(Map<String, String> environment, Prompt prompt, Installation.ClientFactory clients) {
        this.environment = Map.copyOf(environment);
        this.prompt = prompt;
        this.clients = clients;
    }

    /** The root command of the tree {@code command} belongs to. */
    static SqlStreamsCommand of(CommandSpec command) {
        return (SqlStreamsCommand) command.root().userObject();
    }

    /** Where this run's commands read from; a usage error when no URL is given or it is not a PostgreSQL URL. */
    Installation installation(CommandSpec command) {
        String chosenUrl = chosenUrl();
        if (chosenUrl == null || chosenUrl.isBlank()) {
            throw new ParameterException(command.commandLine(),
                    "no database given: pass --url or set " + URL_VARIABLE);
        }
        String chosenSchema = schema != null ? schema : environment.getOrDefault(SCHEMA_VARIABLE, ClientConfig.DEFAULT_SCHEMA);
        try {
            return new Installation(DatabaseUrl.dataSource(chosenUrl), chosenSchema,
                    new StderrLogger(command.commandLine().getErr(), System.Logger.Level.INFO), clients);
        } catch (IllegalArgumentException invalid) {
            throw new ParameterException(command.commandLine(), invalid.getMessage());
        }
    }

    /** Where the chosen URL points, as {@code host:port}; only for a URL {@link #installation} accepted. */
    String databaseLocation() {
        return DatabaseUrl.where(DatabaseUrl.dataSource(chosenUrl()));
    }

    Output output(CommandSpec command) {
        return new Output(command.commandLine().getOut(), output);
    }

    /** {@link #output(CommandSpec)} for commands with {@code --quiet}, which has nothing to say in JSON. */
    Output output(CommandSpec command, boolean quiet) {
        if (quiet && output == OutputFormat.JSON) {
            throw new ParameterException(command.commandLine(), "--quiet and --output json cannot be combined");
        }
        return output(command);
    }

    /** Where this run asks the operator to confirm a destroy. */
    Prompt prompt() {
        return prompt;
    }

    private String chosenUrl() {
        return url != null ? url : environment.get(URL_VARIABLE);
    }

    /** The tool's version and the DDL versions it reads. */
    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = SqlStreamsCommand.class.getPackage().getImplementationVersion();
            return new String[] {"sqlstreams " + (version == null ? "(development build)" : version)
                    + ", " + BuildVersions.text()};
        }
    }
}
