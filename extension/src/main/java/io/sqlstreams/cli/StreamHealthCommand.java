package io.sqlstreams.cli;

import java.util.List;

import io.sqlstreams.SqlStreams;
import io.sqlstreams.StreamVersionHealth;
import io.sqlstreams.StreamVersionHealth.GroupVersionHealth;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "health", description = "For each payload version the stream still holds: its retained messages,"
        + " its compaction heads and the consumer groups that still have it unread, retrying or dead; a version"
        + " with none of those left is retirable.")
final class StreamHealthCommand extends InstallationCommand {
    @Parameters(index = "0", paramLabel = "<stream>")
    private String stream;

    @Override
    int run(Output output, Installation installation) {
        List<StreamVersionHealth> versions;
        try (SqlStreams client = installation.client()) {
            versions = client.stream(stream, Object.class).health();
        }
        if (output.json()) {
            JsonArrayBuilder array = Json.createArrayBuilder();
            versions.forEach(version -> array.add(json(version)));
            output.json(Json.createObjectBuilder().add("stream", stream).add("versions", array).build());
            return ExitCodes.OK;
        }
        TextTable holdings = TextTable.withHeaders("VERSION", "MESSAGES", "FIRST_ID", "LAST_ID", "COMPACTION_HEADS",
                "RETIRABLE");
        TextTable readers = TextTable.withHeaders("VERSION", "CONSUMER", "UNREAD", "RETRYING", "DEAD");
        for (StreamVersionHealth version : versions) {
            holdings.row(String.valueOf(version.schemaVersion()), String.valueOf(version.messages()),
                    orNone(version.firstId()), orNone(version.lastId()), String.valueOf(version.compactionHeads()),
                    String.valueOf(version.retirable()));
            for (GroupVersionHealth group : version.groups()) {
                readers.row(String.valueOf(version.schemaVersion()), group.group(), String.valueOf(group.unread()),
                        String.valueOf(group.retrying()), String.valueOf(group.dead()));
            }
        }
        output.table(holdings);
        if (versions.stream().anyMatch(version -> !version.groups().isEmpty())) {
            output.line("");
            output.table(readers);
        }
        return ExitCodes.OK;
    }

    private static JsonObject json(StreamVersionHealth version) {
        JsonArrayBuilder groups = Json.createArrayBuilder();
        version.groups().forEach(group -> groups.add(Json.createObjectBuilder()
                .add("consumer", group.group())
                .add("unread", group.unread())
                .add("retrying", group.retrying())
                .add("dead", group.dead())));
        return Json.createObjectBuilder()
                .add("schema_version", version.schemaVersion())
                .add("messages", version.messages())
                .add("first_id", id(version.firstId()))
                .add("last_id", id(version.lastId()))
                .add("compaction_heads", version.compactionHeads())
                .add("retirable", version.retirable())
                .add("groups", groups)
                .build();
    }

    private static JsonValue id(Long id) {
        return id == null ? JsonValue.NULL : Json.createValue(id);
    }

    private static String orNone(Long id) {
        return id == null ? TextTable.NONE : id.toString();
    }
}
