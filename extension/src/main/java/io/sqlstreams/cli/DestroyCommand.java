package io.sqlstreams.cli;

import io.sqlstreams.SqlStreams;
import jakarta.json.JsonObjectBuilder;
import picocli.CommandLine.Option;

/**
 * A destroy verb that asks for the name of what it destroys to be typed, unless {@code --yes}, which a run without a
 * terminal or with {@code --output json} needs. Whatever the library would refuse (an absent target, a guard that
 * {@code --force} skips) fails before the question is asked.
 */
abstract class DestroyCommand extends InstallationCommand {
    @Option(names = {"-y", "--yes"}, description = "destroy without asking")
    private boolean yes;

    /**
     * The question about the target, such as {@code destroy schedule "nightly" (@daily on stream "reports")? Its
     * messages stay.}, after checking that it is there and may be destroyed: the library's coded failure otherwise.
     */
    abstract String question(SqlStreams client);

    /** What the operator types to confirm. */
    abstract String name();

    abstract void destroy(SqlStreams client);

    /** The target as lines name it: {@code schedule "nightly"}. */
    abstract String describe();

    /** The JSON document's fields that name the target; {@code "destroyed": true} follows them. */
    abstract JsonObjectBuilder identity();

    /** What the success line adds after naming the target, such as {@code ; its messages stay in its stream}. */
    String afterword() {
        return "";
    }

    @Override
    final int run(Output output, Installation installation) {
        Prompt prompt = yes ? Prompt.NONE : confirmation(output, "destroy");
        SqlStreams client = installation.client();
        if (!yes && !confirmed(client, prompt)) {
            err().println(describe() + " was not destroyed: the name typed did not match");
            return ExitCodes.DECLINED;
        }
        destroy(client);
        if (output.json()) {
            output.json(identity().add("destroyed", true).build());
        } else {
            output.line("destroyed " + describe() + afterword());
        }
        return ExitCodes.OK;
    }

    private boolean confirmed(SqlStreams client, Prompt prompt) {
        return prompt.ask(question(client) + " Type its name to confirm: ").filter(name()::equals).isPresent();
    }
}
