package io.sqlstreams.cli;

import io.sqlstreams.DestroyOptions;
import io.sqlstreams.SqlStreams;
import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "destroy", description = "Delete a consumer group: its cursor, leases, retries, dead letters,"
        + " bindings and workers; the stream and its messages stay. Refused while an instance of the group is live"
        + " or it still has retries or dead letters, unless --force. Asks for the group's name to be typed unless"
        + " --yes, which a run without a terminal or with --output json needs; --yes does not imply --force.")
final class ConsumerDestroyCommand extends DestroyCommand {
    @Mixin
    private GroupArguments names;

    @Option(names = "--force", description = "destroy even while an instance is live or delivery rows remain;"
            + " running instances stop when their worker rows vanish")
    private boolean force;

    @Override
    String question(SqlStreams client) {
        names.handle(client).checkDestroy(options());
        return "destroy " + names.describe() + "? Its cursor, retries and dead letters go; the stream's messages"
                + " stay.";
    }

    @Override
    String name() {
        return names.group();
    }

    @Override
    void destroy(SqlStreams client) {
        names.handle(client).destroy(options());
    }

    @Override
    String describe() {
        return names.describe();
    }

    @Override
    JsonObjectBuilder identity() {
        return Json.createObjectBuilder().add("stream", names.stream()).add("consumer", names.group());
    }

    private DestroyOptions options() {
        return force ? DestroyOptions.forced() : DestroyOptions.guarded();
    }
}
