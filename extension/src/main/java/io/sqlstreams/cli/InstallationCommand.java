package io.sqlstreams.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * A command that reads or sets up the installation named by the run's {@code --url} and {@code --schema}: it is
 * handed the run's output and that installation, and returns its exit code. The installation's client is closed
 * when {@link #run} returns or throws.
 */
abstract class InstallationCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    /** Whether the run asked for {@code --quiet}, which has nothing to print as JSON. */
    boolean quiet() {
        return false;
    }

    abstract int run(Output output, Installation installation);

    /** This command's model, with the values the run parsed. */
    CommandSpec spec() {
        return spec;
    }

    /** Where error lines go. */
    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** A usage error (exit 2) this command found in its arguments. */
    ParameterException usageError(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /**
     * Where the operator confirms a change that {@code --yes} makes without asking: a usage error, before anything
     * is read, when the run prints JSON or has no terminal to ask on.
     *
     * @param verb what {@code --yes} does, as the refusal names it: {@code destroy}, {@code redrive}, …
     */
    Prompt confirmation(Output output, String verb) {
        if (output.json()) {
            throw usageError("--output json needs --yes: a run that prints JSON cannot ask for a confirmation");
        }
        Prompt prompt = SqlStreamsCommand.of(spec).prompt();
        if (!prompt.available()) {
            throw usageError("no terminal to confirm on: pass --yes to " + verb + " without asking");
        }
        return prompt;
    }

    @Override
    public final Integer call() {
        SqlStreamsCommand root = SqlStreamsCommand.of(spec);
        Output output = root.output(spec, quiet());
        try (Installation installation = root.installation(spec)) {
            return run(output, installation);
        }
    }
}
