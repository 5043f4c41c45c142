package io.sqlstreams;

import java.util.regex.Pattern;

/**
 * The client's ambient configuration, captured when the client is created (later changes to objects it
 * refers to change nothing).
 *
 * @param schema         the PostgreSQL schema that is one installation. Default {@code sqlstreams}; must
 *                       match {@code ^[a-z_][a-z0-9_]{0,62}$}.
 * @param allowDestroy   gate for every destroy verb; without it they fail with SQL0008. Default false.
 * @param disableManager consume sessions skip running the system manager beside them. Default false.
 * @param disableWakeup  the client neither announces its commits nor listens for other clients' announcements
 *                       (PostgreSQL {@code LISTEN/NOTIFY}): its sessions find new messages by polling alone, every
 *                       claimPollRate. Default false.
 * @param logger         where diagnostic lines go; each starts with its code. Default
 *                       {@code System.getLogger("io.sqlstreams")}.
 * @param retry          retry of every PostgreSQL call the library makes on a transient failure (never
 *                       message redelivery). Default {@link RetryPolicy#clientDefaults()}.
 * @param manager        how this process runs the system manager. Default {@link ManagerConfig#defaults()}.
 * @param openTelemetry  the {@code io.opentelemetry.api.OpenTelemetry} that traces sends and handler runs and counts
 *                       messages, set through {@link Builder#openTelemetry}; null (the default) for none. Typed
 *                       {@code Object} so the class loads where the OpenTelemetry API is absent.
 */
public record ClientConfig(String schema, boolean allowDestroy, boolean disableManager, boolean disableWakeup,
                           System.Logger logger, RetryPolicy retry, ManagerConfig manager, Object openTelemetry) {

    public static final String DEFAULT_SCHEMA = "sqlstreams";
    public static final Pattern SCHEMA_NAME = Pattern.compile("^[a-z_][a-z0-9_]{0,62}$");

    private static final ClientConfig DEFAULTS = new ClientConfig(null, false, false, false, null, null, null,
            null);

    public ClientConfig {
        schema = schema == null || schema.isEmpty() ? DEFAULT_SCHEMA : schema;
        logger = logger == null ? System.getLogger("io.sqlstreams") : logger;
        retry = RetryPolicy.withDefaults(retry);
        manager = manager == null ? ManagerConfig.defaults() : manager;
    }

    public static ClientConfig defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Checks the schema name (SQL0109), the retry policy and the manager settings (SQL0108).
     *
     * @throws InvalidNameException          when the schema name breaks {@link #SCHEMA_NAME}
     * @throws InvalidConfigurationException when the retry policy or the manager settings are invalid
     */
    public void validate() {
        if (!SCHEMA_NAME.matcher(schema).matches()) {
            throw new InvalidNameException("schema", schema,
                    "must start with a lower-case letter or underscore, continue with lower-case letters, digits or"
                            + " underscores, and be at most 63 characters");
        }
        Violations violations = new Violations();
        retry.collectResolvedViolations(violations, "retry");
        manager.collectViolations(violations, "manager");
        violations.throwIfAny();
    }

    /** Builds a client configuration; anything not set takes its default. */
    public static final class Builder {
        private String schema;
        private boolean allowDestroy;
        private boolean disableManager;
        private boolean disableWakeup;
        private System.Logger logger;
        private RetryPolicy retry;
        private ManagerConfig manager;
        private Object openTelemetry;

        private Builder() {
        }

        public Builder schema(String schema) {
            this.schema = schema;
            return this;
        }

        public Builder allowDestroy(boolean allowDestroy) {
            this.allowDestroy = allowDestroy;
            return this;
        }

        public Builder disableManager(boolean disableManager) {
            this.disableManager = disableManager;
            return this;
        }

        public Builder disableWakeup(boolean disableWakeup) {
            this.disableWakeup = disableWakeup;
            return this;
        }

        public Builder logger(System.Logger logger) {
            this.logger = logger;
            return this;
        }

        public Builder retry(RetryPolicy retry) {
            this.retry = retry;
            return this;
        }

        public Builder manager(ManagerConfig manager) {
            this.manager = manager;
            return this;
        }

        /**
         * Traces every produce made inside a span and every handler run, and counts messages, through
         * {@code openTelemetry}; null for none.
         */
        public Builder openTelemetry(io.opentelemetry.api.OpenTelemetry openTelemetry) {
            this.openTelemetry = openTelemetry;
            return this;
        }

        public ClientConfig build() {
            return new ClientConfig(schema, allowDestroy, disableManager, disableWakeup, logger, retry, manager,
                    openTelemetry);
        }
    }
}
