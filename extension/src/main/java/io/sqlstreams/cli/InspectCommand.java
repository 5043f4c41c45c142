package io.sqlstreams.cli;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInspection;
import io.sqlstreams.Quoting;
import io.sqlstreams.engine.codec.DurationText;
import io.sqlstreams.engine.codec.OptionsDocument;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code consumer inspect <stream> <group>}: the group's declaration as stored (sparse) beside the values its
 * instances run under after defaults, then its cursor and delivery state and its pause.
 */
@Command(name = "inspect", description = "Show a consumer group's declared and effective config side by side,"
        + " its cursor positions and lag, open range leases, exception rows by status, and whether it is paused.")
final class InspectCommand extends InstallationCommand {
    /** Every exception row status, shown even at zero. */
    private static final List<String> STATUSES = List.of("ready", "inflight", "deferred", "dead", "superseded",
            "discarded");

    @Mixin
    private GroupArguments names;

    @Override
    int run(Output output, Installation installation) {
        ConsumerInspection inspection = names.handle(installation.client()).inspect();
        JsonObject document = document(inspection);
        if (output.json()) {
            output.json(document);
        } else {
            printText(document, output);
        }
        return ExitCodes.OK;
    }

    private static JsonObject document(ConsumerInspection inspection) {
        JsonObjectBuilder exceptions = Json.createObjectBuilder();
        Map<String, Long> counts = new LinkedHashMap<>();
        STATUSES.forEach(status -> counts.put(status, 0L));
        counts.putAll(inspection.exceptions());
        counts.forEach(exceptions::add);
        return Json.createObjectBuilder()
                .add("consumer", RowFormat.CONSUMER.json().apply(inspection.consumer()))
                .add("declared", StoredKeys.parse(inspection.declared()))
                .add("effective", effective(inspection))
                .add("cursor", Json.createObjectBuilder()
                        .add("head", inspection.head())
                        .add("claimed", inspection.claimed())
                        .add("committed", inspection.committed())
                        .add("lag", inspection.lag())
                        .add("open_leases", inspection.openLeases()))
                .add("exceptions", exceptions)
                .add("pause", OperatorFormats.pause(inspection.pause()))
                .build();
    }

    /** The declaration with every default filled in, shaped like the stored document. */
    private static JsonObject effective(ConsumerInspection inspection) {
        ConsumerConfig declared = inspection.declaredConfig();
        JsonObjectBuilder effective = Json.createObjectBuilder()
                .add("message", OptionsDocument.toObject(inspection.effectiveMessage()));
        if (declared.messageMin() != null) {
            effective.add("message_min", OptionsDocument.toObject(declared.messageMin()));
        }
        effective.add("message_max", OptionsDocument.toObject(inspection.effectiveMax()));
        if (declared.concurrencyOverride() != null) {
            effective.add("concurrency_override", declared.concurrencyOverride().wireName());
        }
        return effective
                .add("exception_initial_backoff", DurationText.format(declared.resolvedExceptionInitialBackoff()))
                .add("max_range_reclaims", declared.resolvedMaxRangeReclaims())
                .build();
    }

    private void printText(JsonObject document, Output output) {
        JsonObject consumer = document.getJsonObject("consumer");
        output.line("consumer group " + Quoting.quote(names.group()) + " on stream " + Quoting.quote(names.stream())
                + " (id "
                + consumer.get("id") + ")");
        output.line("");
        Map<String, JsonValue> declared = StoredKeys.flatten(document.getJsonObject("declared"));
        Map<String, JsonValue> effective = StoredKeys.flatten(document.getJsonObject("effective"));
        Set<String> keys = new LinkedHashSet<>(effective.keySet());
        keys.addAll(declared.keySet());
        TextTable config = TextTable.withHeaders("CONFIG", "DECLARED", "EFFECTIVE");
        keys.forEach(key -> config.row(key, TextTable.cell(declared.get(key)), TextTable.cell(effective.get(key))));
        output.table(config);
        output.line("");
        output.line("CURSOR");
        output.table(TextTable.fields(document.getJsonObject("cursor")));
        output.line("");
        output.line("EXCEPTIONS");
        output.table(TextTable.fields(document.getJsonObject("exceptions")));
        output.line("");
        output.line("PAUSE");
        output.table(TextTable.fields(document.getJsonObject("pause")));
    }
}
