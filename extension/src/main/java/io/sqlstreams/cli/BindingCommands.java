package io.sqlstreams.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.sqlstreams.Binding;
import io.sqlstreams.Consumer;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.Stream;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code sqlstreams consumer binding …}: which routing keys reach a consumer group, as its effective (installed)
 * binding set says; a group without one reads the whole stream.
 */
@Command(name = "binding", description = "Read consumer groups' effective routing bindings.",
        subcommands = {BindingCommands.Get.class, BindingCommands.ListBindings.class})
final class BindingCommands {
    /** How a table shows a group without a binding set. */
    static final String WHOLE_STREAM = "(whole stream)";

    private BindingCommands() {
    }

    /** One group's effective binding set; {@code binding} null when the group reads the whole stream. */
    record GroupBinding(String stream, String consumer, Binding binding) {
    }

    static final RowFormat<GroupBinding> FORMAT = new RowFormat<>(GroupBinding::consumer, BindingCommands::json,
            List.of("stream", "consumer", "patterns", "declared_at"),
            Map.of("patterns", BindingCommands::patternsCell));

    private static JsonObject json(GroupBinding row) {
        JsonObjectBuilder json = Json.createObjectBuilder().add("stream", row.stream()).add("consumer", row.consumer());
        Binding binding = row.binding();
        if (binding == null) {
            return json.addNull("patterns").addNull("declared_by").addNull("declared_at").addNull("installed_at")
                    .build();
        }
        return json.add("patterns", Json.createArrayBuilder(binding.patterns()))
                .add("declared_by", binding.declaredBy())
                .add("declared_at", binding.declaredAt().toString())
                .add("installed_at", binding.attemptedAt().toString())
                .build();
    }

    private static String patternsCell(JsonValue patterns) {
        return patterns.getValueType() == JsonValue.ValueType.NULL ? WHOLE_STREAM
                : patterns.asJsonArray().getValuesAs(JsonString.class).stream().map(JsonString::getString)
                        .collect(Collectors.joining(","));
    }

    @Command(name = "get", description = "Show one consumer group's effective binding set: the routing-key patterns"
            + " of which one must match for a message to reach it; patterns null when it reads the whole stream.")
    static final class Get extends InstallationCommand {
        @Mixin
        private GroupArguments names;

        @Override
        int run(Output output, Installation installation) {
            Binding binding = names.apply(installation, handle -> handle.binding().get().orElse(null));
            output.row(FORMAT, new GroupBinding(names.stream(), names.group(), binding));
            return ExitCodes.OK;
        }
    }

    @Command(name = "list", description = "List every consumer group of every stream with its effective binding"
            + " set, ordered by stream and group.")
    static final class ListBindings extends InstallationCommand {
        @Override
        int run(Output output, Installation installation) {
            List<GroupBinding> rows = new ArrayList<>();
            SqlStreams client = installation.client();
            for (Stream stream : client.streams()) {
                for (Consumer group : client.stream(stream.name(), Object.class).consumers()) {
                    rows.add(new GroupBinding(stream.name(), group.name(), client.stream(stream.name(),
                            Object.class).consumer(group.name()).binding().get().orElse(null)));
                }
            }
            output.rows(FORMAT, rows);
            return ExitCodes.OK;
        }
    }
}
