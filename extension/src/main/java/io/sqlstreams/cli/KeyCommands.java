package io.sqlstreams.cli;

import java.util.List;

import io.sqlstreams.KeyHandle;
import io.sqlstreams.StoredMessage;
import jakarta.json.JsonValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sqlstreams stream key …}: one message key of a stream, its compaction head and its retained messages.
 * Payloads are shown as the JSON they were stored as.
 */
@Command(name = "key", description = "Read one message key of a stream: its compaction head and its messages.",
        subcommands = {KeyCommands.CompactionHead.class, KeyCommands.Messages.class})
final class KeyCommands {
    private KeyCommands() {
    }

    /** The stream and key arguments every {@code key} verb starts with. */
    abstract static class KeyCommand extends InstallationCommand {
        @Parameters(index = "0", paramLabel = "<stream>")
        private String stream;

        @Parameters(index = "1", paramLabel = "<key>")
        private String key;

        KeyHandle<JsonValue> key(Installation installation) {
            return installation.client().stream(stream, JsonValue.class).key(key);
        }
    }

    @Command(name = "get", aliases = "compaction-head", description = "Show the key's compaction head: the greatest"
            + " (schema version, rank, id) produced with compaction under it. Exit 1 with SQL0066 when there is none.")
    static final class CompactionHead extends KeyCommand {
        @Override
        int run(Output output, Installation installation) {
            output.row(RowFormat.MESSAGE, key(installation).compactionHead());
            return ExitCodes.OK;
        }
    }

    @Command(name = "messages", description = "List the messages retained under the key, newest first.")
    static final class Messages extends KeyCommand {
        @Option(names = "--limit", paramLabel = "N", defaultValue = "20",
                description = "at most this many (default ${DEFAULT-VALUE})")
        private int limit;

        @Override
        int run(Output output, Installation installation) {
            List<StoredMessage<JsonValue>> messages = key(installation).messages(limit);
            output.rows(RowFormat.MESSAGE, messages);
            return ExitCodes.OK;
        }
    }
}
