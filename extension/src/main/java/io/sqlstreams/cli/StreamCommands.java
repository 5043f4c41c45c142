package io.sqlstreams.cli;

import java.util.List;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.Quoting;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.Names;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code sqlstreams stream …}: the registered streams and their maintenance workers. */
@Command(name = "stream", description = "Read, rename or destroy registered streams, their settings, keys and"
        + " health; read or switch their maintenance workers.",
        subcommands = {StreamCommands.ListStreams.class, StreamCommands.GetStream.class, StreamConfigCommands.class,
                KeyCommands.class, StreamHealthCommand.class, StreamLifecycleCommands.Rename.class,
                StreamLifecycleCommands.Destroy.class,
                MaintenanceCommands.Janitor.class, MaintenanceCommands.Vacuum.class})
final class StreamCommands {
    private StreamCommands() {
    }

    /** SQL0005: {@code stream} is not registered. */
    static SqlStreamsException notRegistered(String stream) {
        return new SqlStreamsException(Code.SQL0005, "stream " + Quoting.quote(stream) + " is not registered");
    }

    @Command(name = "list", description = "List the registered streams, ordered by name.")
    static final class ListStreams extends ListCommand<Stream> {
        ListStreams() {
            super(RowFormat.STREAM);
        }

        @Override
        List<Stream> rows(Installation installation) {
            return installation.client().streams();
        }
    }

    @Command(name = "get", description = "Show one stream's row: its id, partition size and retention settings.")
    static final class GetStream extends GetCommand<Stream> {
        @Parameters(index = "0", paramLabel = "<stream>")
        private String stream;

        GetStream() {
            super(RowFormat.STREAM);
        }

        @Override
        Optional<Stream> row(Installation installation) {
            Names.resource("stream", stream);
            return installation.client().stream(stream, Object.class).get();
        }

        @Override
        String absence() {
            return notRegistered(stream).getMessage();
        }
    }
}
