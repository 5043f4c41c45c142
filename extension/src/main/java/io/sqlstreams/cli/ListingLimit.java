package io.sqlstreams.cli;

import io.sqlstreams.PageRequest;
import picocli.CommandLine.Option;

/** {@code --limit N} of the operator listings (a mixin); the library refuses one outside 1 to 1,000 (SQL0152). */
final class ListingLimit {
    @Option(names = "--limit", paramLabel = "N", defaultValue = "50",
            description = "at most this many (default ${DEFAULT-VALUE}, at most " + PageRequest.MAX_LIMIT + ")")
    private int limit;

    int value() {
        return limit;
    }
}
