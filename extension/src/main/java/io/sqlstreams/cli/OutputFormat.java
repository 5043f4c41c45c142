package io.sqlstreams.cli;

/** The two shapes of everything the tool prints on standard output. */
enum OutputFormat {
    /** Aligned tables for people. */
    TEXT,
    /** One JSON document per run, for scripts. */
    JSON
}
