package io.sqlstreams;

/**
 * The installation itself (the schema's shared tables and the system's own workers), for an operator or a
 * deployment step. A handle does no I/O until a verb is called; the client has one, {@link SqlStreams#system()}.
 */
public interface SystemHandle {

    /**
     * Creates the installation when it is missing and writes the system's worker rows from {@code config}, in one
     * transaction. Safe on every start. A declaration that differs from the stored one replaces it and keeps each
     * worker's target, so a suspension an operator set stays. A stream's register creates the installation too,
     * with the defaults.
     *
     * @throws InvalidConfigurationException (SQL0108) for an invalid {@code config}
     * @throws SqlStreamsException           SQL0064 when the connecting role may not create the schema or its
     *                                       tables; SQL0022 / SQL0023 when the database is at another DDL version
     */
    void register(SystemConfig config);

    /**
     * The installation as it is recorded now.
     *
     * @throws SqlStreamsException SQL0017 when the schema holds no installation
     */
    SystemState get();

    /**
     * Brings the installation's system scope to this build's DDL version and returns that version: creates it when
     * missing. Streams' families have a DDL version of their own, migrated by {@code sqlstreams migrate streams up}.
     *
     * @throws SqlStreamsException SQL0023 when the database needs a newer library; SQL0064 as for {@link #register}
     */
    int migrate();

    /**
     * The system scope's DDL version as {@code migration_log} records it.
     *
     * @throws SqlStreamsException SQL0017 when the schema holds no installation
     */
    int migrationVersion();

    /**
     * Deletes everything the library created in the schema: every stream's tables, then the shared tables, then
     * the schema itself when nothing else is left in it (a schema that still holds other tables stays). Serialised
     * with migrations. Unless {@link DestroyOptions#force()}, refuses while a worker instance is live or a stream is
     * registered. A later {@link #register} creates the installation afresh.
     *
     * <p>Each stream goes in a transaction of its own (with its rows in the shared tables, as a stream destroy
     * does), the shared tables and the schema in the last, so no transaction locks more than one stream's tables.
     * A destroy that stops part way throws its cause's code, saying how many streams it dropped and how many are
     * left; the installation is whole meanwhile, only without those streams, and calling destroy again finishes
     * it. Progress is logged as SQL0163.
     *
     * @throws SqlStreamsException SQL0008 without {@link ClientConfig#allowDestroy()}; SQL0017 when there is no
     *                             installation; SQL0010 while a worker instance is live and SQL0011 while a stream
     *                             is registered, the library's own {@code __system.} streams aside (both only
     *                             when not forced)
     */
    void destroy(DestroyOptions options);

    /** The installation's metrics. No I/O until a verb is called. */
    MetricsHandle metrics();

    /** The installation's own alerts ({@code metrics_collector_progress}). No I/O until a verb is called. */
    AlertsHandle alerts();
}
