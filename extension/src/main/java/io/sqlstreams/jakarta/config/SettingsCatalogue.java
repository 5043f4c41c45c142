package io.sqlstreams.jakarta.config;

import static io.sqlstreams.jakarta.config.Layer.GROUP_DECLARATION;
import static io.sqlstreams.jakarta.config.Layer.GROUP_RUNTIME;
import static io.sqlstreams.jakarta.config.Layer.SESSION_OPTION;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.Start;
import io.sqlstreams.engine.codec.DurationText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every configuration property, declared once. Group properties mirror the fields of
 * {@link ConsumerConfig} (with {@link MessageOptions} and its retry policy under {@code message.},
 * {@code message-min.} and {@code message-max.}) and of {@link ConsumeOptions}, in kebab case; defaults are
 * read from the API so the reference table cannot drift from the library.
 *
 * <p>Two fields of {@link MessageOptions} have no property. {@code scheduledAt} is a fact the schedule
 * producer sets, never a knob. {@code concurrency} would be {@code message.concurrency}, whose
 * environment-variable spelling ({@code …_MESSAGE_CONCURRENCY}) is that of the session option
 * {@code message-concurrency}: one variable would set both. A message's key policy is the producer's to
 * state, and {@code concurrency-override} covers the group's side.
 */
final class SettingsCatalogue {

    private static final MessageOptions LIBRARY_MESSAGE = ConsumerConfig.defaults().resolvedMessage();
    private static final MessageOptions LIBRARY_MESSAGE_MAX = ConsumerConfig.defaults().resolvedMessageMax();
    private static final ConsumeOptions LIBRARY_OPTIONS = ConsumeOptions.defaults();

    private static final List<MessageField<?>> MESSAGE_FIELDS = List.of(
            new MessageField<>("timeout", ValueKinds.DURATION, "how long the handler may run",
                    MessageOptions::timeout, (m, v) -> m.options().timeout(v)),
            new MessageField<>("retry.max-retries", ValueKinds.WHOLE_NUMBER,
                    "failed attempts allowed, the first included, before the message dead-letters",
                    m -> m.retry().maxRetries(), (m, v) -> m.retry().maxRetries(v)),
            new MessageField<>("retry.max-delays", ValueKinds.WHOLE_NUMBER,
                    "handler-requested later runs (`Outcome.delay`) allowed before the message dead-letters",
                    m -> m.retry().maxDelays(), (m, v) -> m.retry().maxDelays(v)),
            new MessageField<>("retry.base-delay", ValueKinds.DURATION, "the first backoff delay",
                    m -> m.retry().baseDelay(), (m, v) -> m.retry().baseDelay(v)),
            new MessageField<>("retry.max-delay", ValueKinds.DURATION, "the ceiling every later backoff delay is capped at",
                    m -> m.retry().maxDelay(), (m, v) -> m.retry().maxDelay(v)),
            new MessageField<>("retry.exponent", ValueKinds.WHOLE_NUMBER,
                    "backoff growth, delay = base-delay × exponent^attempt",
                    m -> m.retry().exponent(), (m, v) -> m.retry().exponent(v)));

    private static final List<PropertyDeclaration<GroupDraft, ?>> GROUP_PROPERTIES = declareGroupProperties();

    private static final List<PropertyDeclaration<GlobalDraft, ?>> GLOBAL_PROPERTIES = List.of(
            new PropertyDeclaration<>(PropertyKeys.globalKey("datasource"), Layer.GLOBAL, ValueKinds.TEXT,
                    GlobalSettings.DEFAULT_DATASOURCE_JNDI_NAME,
                    "JNDI name of the server's PostgreSQL `DataSource`; the extension never opens its own pool.",
                    GlobalDraft::dataSourceJndiName),
            new PropertyDeclaration<>(PropertyKeys.globalKey("schema"), Layer.GLOBAL, ValueKinds.TEXT,
                    ClientConfig.DEFAULT_SCHEMA,
                    "The PostgreSQL schema that is one sqlstreams installation; must match `"
                            + ClientConfig.SCHEMA_NAME.pattern() + "`.",
                    GlobalDraft::schema),
            new PropertyDeclaration<>(PropertyKeys.globalKey("manager.enabled"), Layer.GLOBAL, ValueKinds.BOOLEAN,
                    "true",
                    "Whether the application's consume sessions take part in the system manager, which runs every"
                            + " stream's janitor and vacuum; `false` where a dedicated `sqlstreams manager run` does,"
                            + " or where the application's role has no DDL rights.",
                    GlobalDraft::managerEnabled),
            new PropertyDeclaration<>(PropertyKeys.globalKey("wakeup.enabled"), Layer.GLOBAL, ValueKinds.BOOLEAN,
                    "true",
                    "Whether commits wake idle sessions at once, in every process (PostgreSQL `LISTEN/NOTIFY`: one"
                            + " connection of the data source held while sessions run); `false` leaves them to"
                            + " poll every `claim-poll-rate`. Without a pgjdbc data source, or through a"
                            + " pooler such as PgBouncer, sessions poll anyway (SQL0142).",
                    GlobalDraft::wakeupEnabled),
            new PropertyDeclaration<>(PropertyKeys.globalKey("console.enabled"), Layer.GLOBAL, ValueKinds.BOOLEAN,
                    "false",
                    "Whether the application serves the operator console (a page and its JSON endpoints) at"
                            + " `sqlstreams.console.path`, to users in the role `sqlstreams-viewer` or"
                            + " `sqlstreams-operator`.",
                    GlobalDraft::consoleEnabled),
            new PropertyDeclaration<>(PropertyKeys.globalKey("console.path"), Layer.GLOBAL, ValueKinds.URL_PATH,
                    GlobalSettings.DEFAULT_CONSOLE_PATH,
                    "Where in the application the operator console is served: `/` then only `a-z`, `0-9`, `/`,"
                            + " `_` and `-`.",
                    GlobalDraft::consolePath),
            new PropertyDeclaration<>(PropertyKeys.globalKey("telemetry.enabled"), Layer.GLOBAL, ValueKinds.BOOLEAN,
                    "true",
                    "Whether produces and handler runs report to the server's OpenTelemetry (MicroProfile Telemetry:"
                            + " Open Liberty's `mpTelemetry-2.0`, Payara's built-in tracing) when the application"
                            + " can inject one: `send` and `process` spans with the trace context in each"
                            + " message's headers, and the `messaging.*` metrics (through its OpenTelemetry meter,"
                            + " or its MicroProfile Metrics registry where its OpenTelemetry traces only, as on"
                            + " Payara). No trace leaves while the server's SDK is disabled (`otel.sdk.disabled`,"
                            + " true by default).",
                    GlobalDraft::telemetryEnabled));

    private static final List<PropertyDeclaration<ScheduleDraft, ?>> SCHEDULE_PROPERTIES = List.of(
            schedule("stream", ValueKinds.TEXT, "required", "The stream the schedule's messages go to; registered"
                    + " with the defaults when the application finds it absent.",
                    (draft, value) -> draft.stream = value),
            schedule("expression", ValueKinds.TEXT, "required", "When it is due: a 5-field cron spec (`30 4 * * 1`),"
                    + " `@hourly`, `@daily`, `@weekly`, `@monthly`, `@yearly` or `@every <duration>`, optionally"
                    + " after `TZ=Area/City ` (else UTC); times at least a minute apart.",
                    (draft, value) -> draft.expression = value),
            schedule("payload-type", ValueKinds.TEXT, "required", "The payload's class (with `@SchemaVersion`),"
                    + " loaded from the application.", (draft, value) -> draft.payloadType = value),
            schedule("payload", ValueKinds.TEXT, "required", "The payload every message carries, as the JSON of"
                    + " `payload-type`.", (draft, value) -> draft.payload = value),
            schedule("timeout", ValueKinds.DURATION, "30s", "The delivery timeout written into every message.",
                    (draft, value) -> draft.timeout = value),
            schedule("concurrency", ValueKinds.wireNamed(Concurrency.class), "parallel", "`exclusive` makes a run"
                    + " wait until the previous one, still running, is done; `ordered` is refused.",
                    (draft, value) -> draft.concurrency = value));

    private static final Map<String, PropertyDeclaration<GroupDraft, ?>> GROUP_PROPERTIES_BY_NAME =
            GROUP_PROPERTIES.stream().collect(Collectors.toUnmodifiableMap(PropertyDeclaration::name, p -> p));

    private SettingsCatalogue() {
    }

    /** Every property a group key or a {@code sqlstreams.defaults.} key may set, in reference order. */
    static List<PropertyDeclaration<GroupDraft, ?>> groupProperties() {
        return GROUP_PROPERTIES;
    }

    /** Every property a {@code sqlstreams.schedules."<name>".} key may set, in reference order. */
    static List<PropertyDeclaration<ScheduleDraft, ?>> scheduleProperties() {
        return SCHEDULE_PROPERTIES;
    }

    static List<PropertyDeclaration<GlobalDraft, ?>> globalProperties() {
        return GLOBAL_PROPERTIES;
    }

    static Optional<PropertyDeclaration<GroupDraft, ?>> groupProperty(String name) {
        return Optional.ofNullable(GROUP_PROPERTIES_BY_NAME.get(name));
    }

    private static List<PropertyDeclaration<GroupDraft, ?>> declareGroupProperties() {
        List<PropertyDeclaration<GroupDraft, ?>> all = new ArrayList<>();
        MESSAGE_FIELDS.forEach(field -> all.add(field.declaration("message", GroupDraft::message,
                "Default for messages that leave it unset: ", field.shown(LIBRARY_MESSAGE))));
        MESSAGE_FIELDS.forEach(field -> all.add(field.declaration("message-min", GroupDraft::messageMin,
                "Floor on what a message may request: ", "none")));
        MESSAGE_FIELDS.forEach(field -> all.add(field.declaration("message-max", GroupDraft::messageMax,
                "Ceiling on what a message may request: ",
                "`message." + field.path() + "` (" + field.shown(LIBRARY_MESSAGE_MAX) + ")")));
        all.add(group("concurrency-override", ValueKinds.wireNamed(Concurrency.class), "none",
                "Run every message under this policy instead of its own; pinned when a message is claimed.",
                (d, v) -> d.declaration().concurrencyOverride(v)));
        all.add(group("start", ValueKinds.wireNamed(Start.class), ConsumerConfig.defaults().resolvedStart().wireName(),
                "Where a brand-new group's cursor is placed; read once, when the group is created.",
                (d, v) -> d.declaration().start(v)));
        all.add(group("bindings", ValueKinds.PATTERNS, "none (the whole stream)",
                "The group's whole routing pattern set; `*` matches any run of characters. A group with any"
                        + " binding stops receiving messages without a routing key.",
                (d, v) -> d.declaration().bindings(v)));
        all.add(group("exception-initial-backoff", ValueKinds.DURATION,
                shown(ConsumerConfig.DEFAULT_EXCEPTION_INITIAL_BACKOFF),
                "The first retry delay written on a fresh exception row.",
                (d, v) -> d.declaration().exceptionInitialBackoff(v)));
        all.add(group("max-range-reclaims", ValueKinds.WHOLE_NUMBER, shown(ConsumerConfig.DEFAULT_MAX_RANGE_RECLAIMS),
                "Reclaims of one claimed range after which it is quarantined.",
                (d, v) -> d.declaration().maxRangeReclaims(v)));

        all.add(session("batch-limit", ValueKinds.WHOLE_NUMBER, shown(ConsumeOptions.DEFAULT_BATCH_LIMIT)
                        + ", growing while a backlog lasts",
                "Messages claimed per poll (the range size); set, it is used as given (see `ConsumeOptions`).",
                (d, v) -> d.options().batchLimit(v)));
        all.add(session("queue-size", ValueKinds.WHOLE_NUMBER, "`batch-limit` × `message-concurrency`",
                "Claimed messages buffered ahead of processing; at least `batch-limit`.",
                (d, v) -> d.options().queueSize(v)));
        all.add(session("message-concurrency", ValueKinds.WHOLE_NUMBER,
                shown(ConsumeOptions.DEFAULT_MESSAGE_CONCURRENCY),
                "Messages this box processes at once; ranges, for a transactional, batch or `@Transactional`"
                        + " handler. Not the same as `concurrency-override` (a declaration).",
                (d, v) -> d.options().messageConcurrency(v)));
        all.add(session("claim-poll-rate", ValueKinds.DURATION, shown(ConsumeOptions.DEFAULT_CLAIM_POLL_RATE),
                "How often an idle session polls for messages.", (d, v) -> d.options().claimPollRate(v)));
        all.add(session("queue-margin", ValueKinds.DURATION, shown(ConsumeOptions.DEFAULT_QUEUE_MARGIN),
                "Lease padding for the time a claim waits in the local queue.", (d, v) -> d.options().queueMargin(v)));
        all.add(session("record-margin", ValueKinds.DURATION, shown(ConsumeOptions.DEFAULT_RECORD_MARGIN),
                "Lease padding for recording outcomes.", (d, v) -> d.options().recordMargin(v)));
        all.add(session("timeout-grace", ValueKinds.DURATION, shown(ConsumeOptions.DEFAULT_TIMEOUT_GRACE),
                "Slack for an interrupted handler to unwind before it is abandoned.",
                (d, v) -> d.options().timeoutGrace(v)));
        all.add(session("slow-dispatch-threshold", ValueKinds.DURATION, "off",
                "A dispatch running longer logs SQL0039.", (d, v) -> d.options().slowDispatchThreshold(v)));
        all.add(session("instance-ttl", ValueKinds.DURATION, shown(ConsumeOptions.DEFAULT_INSTANCE_TTL),
                "How long this box's liveness rows stay live without a heartbeat (renewed every half of it).",
                (d, v) -> d.options().instanceTtl(v)));
        all.add(session("binding-retry-interval", ValueKinds.DURATION,
                shown(ConsumeOptions.DEFAULT_BINDING_RETRY_INTERVAL),
                "How often a waiting binding declaration is retried.", (d, v) -> d.options().bindingRetryInterval(v)));
        all.add(session("config-refresh-interval", ValueKinds.DURATION,
                shown(ConsumeOptions.DEFAULT_CONFIG_REFRESH_INTERVAL),
                "How often the stored group declaration is re-read: the staleness window of a redeclaration.",
                (d, v) -> d.options().configRefreshInterval(v)));
        all.add(session("shutdown-timeout", ValueKinds.DURATION,
                "`message-max.timeout` + `timeout-grace` + `record-margin` ("
                        + shown(LIBRARY_OPTIONS.resolvedShutdownTimeout(ConsumerConfig.defaults())) + ")",
                "How long undeploy waits for in-flight handlers.", (d, v) -> d.options().shutdownTimeout(v)));
        all.add(session("disable-graceful-shutdown", ValueKinds.BOOLEAN,
                shown(LIBRARY_OPTIONS.disableGracefulShutdown()),
                "Stop like a process exit: no wait for in-flight handlers; what is unresolved is left to lease expiry.",
                (d, v) -> d.options().disableGracefulShutdown(v)));

        all.add(new PropertyDeclaration<>("enabled", GROUP_RUNTIME, ValueKinds.BOOLEAN, "true",
                "Whether this box runs a session for the group; its declaration is registered either way.",
                GroupDraft::enabled));
        all.add(new PropertyDeclaration<>("executor", GROUP_RUNTIME, ValueKinds.TEXT,
                GroupSettings.DEFAULT_EXECUTOR_JNDI_NAME,
                "JNDI name of the `ManagedExecutorService` the group's handlers run on.",
                GroupDraft::executorJndiName));
        return List.copyOf(all);
    }

    private static <T> PropertyDeclaration<ScheduleDraft, T> schedule(String name, ValueKind<T> kind,
                                                                     String defaultValue, String description,
                                                                     BiConsumer<ScheduleDraft, T> binder) {
        return new PropertyDeclaration<>(name, Layer.SCHEDULE, kind, defaultValue, description, binder);
    }

    private static <T> PropertyDeclaration<GroupDraft, T> group(String name, ValueKind<T> kind, String defaultValue,
                                                               String description, BiConsumer<GroupDraft, T> binder) {
        return new PropertyDeclaration<>(name, GROUP_DECLARATION, kind, defaultValue, description, binder);
    }

    private static <T> PropertyDeclaration<GroupDraft, T> session(String name, ValueKind<T> kind, String defaultValue,
                                                                 String description, BiConsumer<GroupDraft, T> binder) {
        return new PropertyDeclaration<>(name, SESSION_OPTION, kind, defaultValue, description, binder);
    }

    private static String shown(Object value) {
        if (value == null) {
            return "none";
        }
        return value instanceof Duration duration ? DurationText.format(duration) : value.toString();
    }

    /** One field of {@link MessageOptions} or its retry policy, declared once for all three roles. */
    private record MessageField<T>(String path, ValueKind<T> kind, String description,
                                   Function<MessageOptions, Object> read, BiConsumer<MessageDraft, T> binder) {

        String shown(MessageOptions resolved) {
            return SettingsCatalogue.shown(read.apply(resolved));
        }

        PropertyDeclaration<GroupDraft, T> declaration(String prefix, Function<GroupDraft, MessageDraft> part,
                                                       String role, String defaultValue) {
            return group(prefix + "." + path, kind, defaultValue, role + description + ".",
                    (draft, value) -> binder.accept(part.apply(draft), value));
        }
    }
}
