package io.sqlstreams.cli;

import java.util.Arrays;
import java.util.stream.Collectors;

import io.sqlstreams.engine.schema.DdlScope;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/** This build's DDL version of each scope, as the CLI prints it. */
final class BuildVersions {
    private BuildVersions() {
    }

    /** {@code system DDL version 2, stream DDL version 2}. */
    static String text() {
        return Arrays.stream(DdlScope.values()).map(scope -> scope.wireName() + " DDL version " + scope.buildVersion())
                .collect(Collectors.joining(", "));
    }

    /** {@code {"system": 2, "stream": 2}}. */
    static JsonObject json() {
        JsonObjectBuilder versions = Json.createObjectBuilder();
        for (DdlScope scope : DdlScope.values()) {
            versions.add(scope.wireName(), scope.buildVersion());
        }
        return versions.build();
    }
}
