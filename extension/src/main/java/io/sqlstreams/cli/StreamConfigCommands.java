package io.sqlstreams.cli;

import java.util.Arrays;
import java.util.List;

import io.sqlstreams.Quoting;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.Names;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code sqlstreams stream config …}: a stream's stored settings beside their defaults. */
@Command(name = "config", description = "Read a stream's settings.", subcommands = StreamConfigCommands.Get.class)
final class StreamConfigCommands {
    private StreamConfigCommands() {
    }

    @Command(name = "get", description = "Show a stream's settings, each with its default and its value; a key"
            + " shows only that setting.")
    static final class Get extends InstallationCommand {
        @Parameters(index = "0", paramLabel = "<stream>")
        private String stream;

        @Parameters(index = "1", arity = "0..1", paramLabel = "[key]",
                description = "retention_ttl, allow_drop_past_committed, idempotency_key_ttl,"
                        + " empty_compaction_head_ttl, delivery_log_mode or fence_warn_after")
        private String key;

        @Override
        int run(Output output, Installation installation) {
            List<StreamSetting> settings = key == null ? Arrays.asList(StreamSetting.values())
                    : List.of(StreamSetting.named(key).orElseThrow(() -> usageError("unknown stream setting "
                            + Quoting.quote(key) + ": the keys are " + StreamSetting.keys())));
            Names.resource("stream", stream);
            Stream row = installation.client().stream(stream, Object.class).get()
                    .orElseThrow(() -> StreamCommands.notRegistered(stream));
            if (output.json()) {
                output.json(key == null ? array(settings, row) : setting(settings.get(0), row));
            } else {
                TextTable table = TextTable.withHeaders("KEY", "VALUE", "DEFAULT");
                settings.forEach(setting -> table.row(setting.key(), TextTable.cell(setting.value(row)),
                        TextTable.cell(setting.defaultValue())));
                output.table(table);
            }
            return ExitCodes.OK;
        }

        private static JsonArray array(List<StreamSetting> settings, Stream row) {
            JsonArrayBuilder array = Json.createArrayBuilder();
            settings.forEach(setting -> array.add(setting(setting, row)));
            return array.build();
        }

        private static JsonObject setting(StreamSetting setting, Stream row) {
            return Json.createObjectBuilder().add("key", setting.key()).add("value", setting.value(row))
                    .add("default", setting.defaultValue()).build();
        }
    }
}
