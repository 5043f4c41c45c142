package io.sqlstreams.cli;

import java.util.List;

import io.sqlstreams.GroupFence;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.StreamVersionHealth;
import io.sqlstreams.StreamVersionHealth.GroupVersionHealth;
import io.sqlstreams.engine.operator.OperatorJson;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "health", description = "For each payload version the stream still holds: its retained messages,"
        + " its compaction heads and the consumer groups that still have it unread, retrying or dead; a version"
        + " with none of those left is retirable. Then each group's fence: whether an open transaction that"
        + " produced into the stream holds back its fresh claims, and which.")
final class StreamHealthCommand extends InstallationCommand {
    @Parameters(index = "0", paramLabel = "<stream>")
    private String stream;

    @Override
    int run(Output output, Installation installation) {
        List<StreamVersionHealth> versions;
        List<GroupFence> fences;
        SqlStreams client = installation.client();
        StreamHandle<Object> handle = client.stream(stream, Object.class);
        versions = handle.health();
        fences = handle.fences();
        if (output.json()) {
            JsonArrayBuilder array = Json.createArrayBuilder();
            versions.forEach(version -> array.add(json(version)));
            JsonArrayBuilder fenceArray = Json.createArrayBuilder();
            fences.forEach(fence -> fenceArray.add(OperatorJson.fence(fence)));
            output.json(Json.createObjectBuilder().add("stream", stream).add("versions", array)
                    .add("fences", fenceArray).build());
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
        if (!fences.isEmpty()) {
            TextTable fenceTable = TextTable.withHeaders("CONSUMER", "FENCE");
            fences.forEach(fence -> fenceTable.row(fence.group(), fence.describe()));
            output.line("");
            output.table(fenceTable);
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
