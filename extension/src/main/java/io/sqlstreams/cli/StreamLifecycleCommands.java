package io.sqlstreams.cli;

import java.util.List;

import io.sqlstreams.Consumer;
import io.sqlstreams.DestroyOptions;
import io.sqlstreams.Quoting;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamHandle;
import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sqlstreams stream rename|destroy}: the two verbs that change a stream's registration. */
final class StreamLifecycleCommands {
    private StreamLifecycleCommands() {
    }

    @Command(name = "rename", description = "Give a stream a new name, keeping its id, messages and consumer groups;"
            + " running instances keep working. Prints the renamed stream's row.")
    static final class Rename extends InstallationCommand {
        @Parameters(index = "0", paramLabel = "<stream>")
        private String stream;

        @Parameters(index = "1", paramLabel = "<new-name>")
        private String newName;

        @Override
        int run(Output output, Installation installation) {
            if (stream.equals(newName)) {
                throw usageError("the new name is the stream's name: nothing to rename");
            }
            SqlStreams client = installation.client();
            output.row(RowFormat.STREAM, client.stream(stream, Object.class).rename(newName));
            return ExitCodes.OK;
        }
    }

    @Command(name = "destroy", description = "Drop a stream with its messages and every consumer group on it."
            + " A stream that still holds messages needs --force. Asks for the stream's name to be typed unless"
            + " --yes, which a run without a terminal or with --output json needs; --yes does not imply --force.")
    static final class Destroy extends DestroyCommand {
        @Parameters(index = "0", paramLabel = "<stream>")
        private String stream;

        @Option(names = "--force", description = "destroy even when the stream still holds messages")
        private boolean force;

        @Override
        String question(SqlStreams client) {
            StreamHandle<Object> handle = client.stream(stream, Object.class);
            handle.checkDestroy(options());
            Stream doomed = handle.get().orElseThrow(() -> StreamCommands.notRegistered(stream));
            List<String> groups = handle.consumers().stream().map(Consumer::name).toList();
            return "destroy stream " + Quoting.quote(stream) + " (id " + doomed.id() + ")"
                    + (groups.isEmpty() ? "" : " and its consumer group" + (groups.size() == 1 ? " " : "s ")
                    + String.join(", ", groups))
                    + "? Its messages go with it.";
        }

        @Override
        String name() {
            return stream;
        }

        @Override
        void destroy(SqlStreams client) {
            client.stream(stream, Object.class).destroy(options());
        }

        @Override
        String describe() {
            return "stream " + Quoting.quote(stream);
        }

        @Override
        JsonObjectBuilder identity() {
            return Json.createObjectBuilder().add("stream", stream);
        }

        private DestroyOptions options() {
            return force ? DestroyOptions.forced() : DestroyOptions.guarded();
        }
    }
}
