package io.sqlstreams.cli;

import java.util.stream.Collectors;

import io.sqlstreams.engine.system.InstallationDdl;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/** This build's DDL version of each scope, as the CLI prints it. */
final class BuildVersions {
    private BuildVersions() {
    }

    /** {@code system DDL version 2, stream DDL version 2}. */
    static String text() {
        return InstallationDdl.buildVersions().entrySet().stream()
                .map(scope -> scope.getKey() + " DDL version " + scope.getValue()).collect(Collectors.joining(", "));
    }

    /** {@code {"system": 2, "stream": 2}}. */
    static JsonObject json() {
        JsonObjectBuilder versions = Json.createObjectBuilder();
        InstallationDdl.buildVersions().forEach(versions::add);
        return versions.build();
    }
}
