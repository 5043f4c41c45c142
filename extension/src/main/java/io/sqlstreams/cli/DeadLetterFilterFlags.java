package io.sqlstreams.cli;

import java.util.List;
import java.util.Set;

import io.sqlstreams.DeadLetterFilter;
import picocli.CommandLine.Option;

/**
 * The flags that select a consumer group's dead letters (a mixin); each narrows the selection, none selects every
 * dead letter. The library checks the filter (SQL0152) before it reads or changes anything.
 */
final class DeadLetterFilterFlags {
    private static final String DEAD_SINCE = "--dead-since";

    @Option(names = "--from-id", paramLabel = "N", description = "only messages with an id at or above N")
    private Long fromId;

    @Option(names = "--to-id", paramLabel = "N", description = "only messages with an id at or below N")
    private Long toId;

    @Option(names = "--key", paramLabel = "KEY", description = "only messages with exactly this message key")
    private String key;

    @Option(names = "--error", paramLabel = "TEXT",
            description = "only dead letters whose last error contains TEXT, ignoring case")
    private String error;

    @Option(names = DEAD_SINCE, paramLabel = "INSTANT",
            description = "only dead letters that went dead at or after this time (ISO-8601, such as"
                    + " 2026-12-03T17:00:00Z)")
    private String deadSince;

    @Option(names = "--id", paramLabel = "N", split = ",",
            description = "only this message; repeat it or separate ids with commas to select several")
    private List<Long> ids;

    /** The filter the flags describe; SQL0108 for a {@code --dead-since} that is not an instant. */
    DeadLetterFilter filter() {
        return new DeadLetterFilter(fromId, toId, key, error, FlagValues.instant(DEAD_SINCE, deadSince),
                ids == null ? Set.of() : Set.copyOf(ids));
    }
}
