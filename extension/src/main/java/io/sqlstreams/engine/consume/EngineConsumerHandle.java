package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.sqlstreams.engine.alert.EngineAlertsHandle;
import io.sqlstreams.engine.alert.RegistrationAlertPass;
import io.sqlstreams.engine.alert.AlertOwnerLookup;
import io.sqlstreams.AlertsHandle;
import io.sqlstreams.BindingHandle;
import io.sqlstreams.BlockedKey;
import io.sqlstreams.Code;
import io.sqlstreams.Consumer;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.ConsumerInspection;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.DeadLettersHandle;
import io.sqlstreams.DestroyOptions;
import io.sqlstreams.GroupFence;
import io.sqlstreams.OperatorAction;
import io.sqlstreams.ResourceMetricsHandle;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.Worker;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.Names;
import io.sqlstreams.engine.codec.PayloadCodec;
import io.sqlstreams.engine.metrics.EngineResourceMetrics;
import io.sqlstreams.engine.operator.EngineDeadLetters;
import io.sqlstreams.engine.operator.GroupControls;
import io.sqlstreams.engine.query.BindingQueries;
import io.sqlstreams.engine.query.GroupQueries;
import io.sqlstreams.engine.query.OperatorQueries;
import io.sqlstreams.engine.query.StreamHealthQueries;
import io.sqlstreams.engine.query.StreamQueries;
import io.sqlstreams.engine.query.WorkerQueries;

/** A consumer group by name; every verb resolves the stream and group names when it runs. */
public final class EngineConsumerHandle<T> implements ConsumerHandle<T> {
    private final Engine engine;
    private final String stream;
    private final String name;
    private final Class<T> payloadType;
    private final GroupRows groupRows;
    private final GroupQueries groups;
    private final WorkerQueries workers;
    private final BindingQueries bindings;
    private final StreamQueries streams;
    private final OperatorQueries operator;

    public EngineConsumerHandle(Engine engine, String stream, String name, Class<T> payloadType) {
        this.engine = engine;
        this.stream = stream;
        this.name = name;
        this.payloadType = payloadType;
        this.groupRows = new GroupRows(engine.sql());
        this.groups = new GroupQueries(engine.sql());
        this.workers = new WorkerQueries(engine.sql());
        this.bindings = new BindingQueries(engine.sql());
        this.streams = new StreamQueries(engine.sql());
        this.operator = new OperatorQueries(engine.sql());
    }

    @Override
    public String stream() {
        return stream;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public EngineConsumerInstance<T> register(ConsumerConfig config) {
        ConsumerConfig declared = config == null ? ConsumerConfig.defaults() : config;
        checkNames();
        declared.validate();
        int schemaVersion = PayloadCodec.schemaVersion(payloadType);
        requireInstalled();
        RegisteredGroup group = new GroupDeclaration(engine).register(stream, name, declared);
        RegistrationAlertPass.run(engine, stream);
        return new EngineConsumerInstance<>(engine, group, payloadType, schemaVersion, declared);
    }

    @Override
    public Optional<Consumer> get() {
        if (!validNames() || !engine.migrator().installed()) {
            return Optional.empty();
        }
        return engine.database().autoCommit("reading " + describe(), connection -> groups.find(connection, stream, name));
    }

    @Override
    public List<Worker> workers() {
        checkNames();
        requireInstalled();
        return engine.database().autoCommit("reading the workers of " + describe(), connection ->
                workers.ofGroup(connection, require(connection).id()));
    }

    @Override
    public void destroy(DestroyOptions options) {
        guardedDestroy(options, "destroying", (connection, owner, groupId) -> groups.delete(connection, owner.id(),
                groupId));
    }

    @Override
    public void checkDestroy(DestroyOptions options) {
        guardedDestroy(options, "checking the destroy of", (connection, owner, groupId) -> {
        });
    }

    /** Runs {@code deletion} once the group passed destroy's guards, in their transaction. */
    private void guardedDestroy(DestroyOptions options, String activity, Deletion deletion) {
        checkNames();
        if (!engine.config().allowDestroy()) {
            throw new SqlStreamsException(Code.SQL0008, "destroying " + describe() + " needs ClientConfig.allowDestroy");
        }
        boolean force = options != null && options.force();
        requireInstalled();
        engine.database().inTransaction(activity + " " + describe(), connection -> {
            Stream owner = streams.require(connection, stream);
            long groupId = require(connection).id();
            if (!force) {
                refuseWhileLive(connection, groupId);
                refuseWithDeliveries(connection, owner.id(), groupId);
            }
            deletion.run(connection, owner, groupId);
            return null;
        });
    }

    /** What a destroy deletes, or nothing for its check. */
    private interface Deletion {
        void run(Connection connection, Stream owner, long groupId) throws SQLException;
    }

    @Override
    public BindingHandle binding() {
        return () -> {
            checkNames();
            requireInstalled();
            return engine.database().autoCommit("reading the bindings of " + describe(), connection -> {
                Stream owner = streams.require(connection, stream);
                return bindings.effective(connection, owner.id(), require(connection))
                        .filter(binding -> !binding.patterns().isEmpty());
            });
        };
    }

    @Override
    public ConsumerInspection inspect() {
        checkNames();
        requireInstalled();
        return engine.database().inTransaction("inspecting " + describe(), connection -> {
            Stream owner = streams.require(connection, stream);
            Consumer consumer = require(connection);
            String declared = groupRows.declaration(connection, consumer.id());
            ConsumerConfig config = declared == null ? ConsumerConfig.defaults()
                    : GroupDocument.read(GroupDocument.parse(declared));
            GroupQueries.CursorPosition cursor = groups.cursor(connection, owner.id(), consumer.id());
            return new ConsumerInspection(consumer, declared == null ? "{}" : declared, config,
                    config.resolvedMessage(), config.resolvedMessageMax(), cursor.head(), cursor.claimed(),
                    cursor.committed(), cursor.openLeases(), exceptionCounts(connection, owner.id(), consumer.id()),
                    operator.pauseState(connection, consumer.id())
                            .filter(action -> action.kind() == OperatorAction.Kind.PAUSE).orElse(null));
        });
    }

    @Override
    public GroupFence fence() {
        checkNames();
        requireInstalled();
        return engine.database().autoCommit("reading the fence of " + describe(), connection -> {
            long streamId = streams.require(connection, stream).id();
            groupRows.require(connection, stream, name);
            return new StreamHealthQueries(engine.sql()).fences(connection, streamId, name).get(0);
        });
    }

    @Override
    public AlertsHandle alerts() {
        return new EngineAlertsHandle(engine, AlertOwnerLookup.consumerGroup(new StreamQueries(engine.sql()),
                new GroupQueries(engine.sql()), stream, name));
    }

    @Override
    public ResourceMetricsHandle metrics() {
        return EngineResourceMetrics.ofGroup(engine, stream, name);
    }

    @Override
    public DeadLettersHandle deadLetters() {
        return new EngineDeadLetters(engine, stream, name);
    }

    @Override
    public List<BlockedKey> blockedKeys(int limit) {
        return controls().blockedKeys(limit);
    }

    @Override
    public Optional<OperatorAction> pause(String actor) {
        return controls().pause(actor);
    }

    @Override
    public Optional<OperatorAction> resume(String actor) {
        return controls().resume(actor);
    }

    @Override
    public Optional<OperatorAction> paused() {
        return controls().paused();
    }

    @Override
    public List<OperatorAction> actions(int limit) {
        return controls().actions(limit);
    }

    private GroupControls controls() {
        return new GroupControls(engine, stream, name);
    }

    private Map<String, Long> exceptionCounts(Connection connection, long streamId, long groupId) throws SQLException {
        Map<String, Long> counts = new LinkedHashMap<>();
        groups.exceptionCounts(connection, streamId, groupId)
                .forEach((status, count) -> counts.put(status.column(), count));
        return counts;
    }

    private void refuseWhileLive(Connection connection, long groupId) throws SQLException {
        long live = groups.liveInstancesExcept(connection, groupId, List.of());
        if (live > 0) {
            throw new SqlStreamsException(Code.SQL0015, describe() + " still has " + live
                    + " live instance(s); stop them or destroy with force");
        }
    }

    private void refuseWithDeliveries(Connection connection, long streamId, long groupId) throws SQLException {
        if (groups.hasDeliveries(connection, streamId, groupId)) {
            throw new SqlStreamsException(Code.SQL0016, describe() + " still has delivery rows (retries or"
                    + " dead letters); let them resolve or destroy with force");
        }
    }

    private Consumer require(Connection connection) throws SQLException {
        streams.require(connection, stream);
        return groupRows.require(connection, stream, name);
    }

    private void checkNames() {
        Names.resource("stream", stream);
        Names.resource("consumer group", name);
    }

    private boolean validNames() {
        return stream != null && name != null && Names.RESOURCE_NAME.matcher(stream).matches()
                && Names.RESOURCE_NAME.matcher(name).matches();
    }

    private void requireInstalled() {
        if (!engine.migrator().installed()) {
            throw StreamQueries.notFound(stream);
        }
    }

    private String describe() {
        return "consumer group \"" + name + "\" on stream \"" + stream + "\"";
    }
}
