package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.sqlstreams.Binding;
import io.sqlstreams.BindingHandle;
import io.sqlstreams.Code;
import io.sqlstreams.Consumer;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.ConsumerInspection;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.DestroyOptions;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.Worker;
import io.sqlstreams.engine.Engine;
import io.sqlstreams.engine.Names;
import io.sqlstreams.engine.codec.PayloadCodec;
import io.sqlstreams.engine.stream.StreamRows;

/** A consumer group by name; every verb resolves the stream and group names when it runs. */
public final class EngineConsumerHandle<T> implements ConsumerHandle<T> {
    private final Engine engine;
    private final String stream;
    private final String name;
    private final Class<T> payloadType;
    private final GroupRows groups;
    private final StreamRows streams;

    public EngineConsumerHandle(Engine engine, String stream, String name, Class<T> payloadType) {
        this.engine = engine;
        this.stream = stream;
        this.name = name;
        this.payloadType = payloadType;
        this.groups = new GroupRows(engine.sql());
        this.streams = new StreamRows(engine.sql());
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
                groups.workers(connection, require(connection).id()));
    }

    @Override
    public void destroy(DestroyOptions options) {
        checkNames();
        if (!engine.config().allowDestroy()) {
            throw new SqlStreamsException(Code.SQL0008, "destroying " + describe() + " needs ClientConfig.allowDestroy");
        }
        boolean force = options != null && options.force();
        requireInstalled();
        engine.database().inTransaction("destroying " + describe(), connection -> {
            Stream owner = streams.require(connection, stream);
            long groupId = require(connection).id();
            if (!force) {
                refuseWhileLive(connection, groupId);
                refuseWithDeliveries(connection, owner.id(), groupId);
            }
            try (PreparedStatement delete = connection.prepareStatement(
                    engine.sql().forStream("delete_group_deliveries", owner.id()))) {
                for (int i = 1; i <= 5; i++) {
                    delete.setLong(i, groupId);
                }
                delete.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public BindingHandle binding() {
        return () -> {
            checkNames();
            requireInstalled();
            return engine.database().autoCommit("reading the bindings of " + describe(), connection -> {
                Stream owner = streams.require(connection, stream);
                Consumer consumer = require(connection);
                try (PreparedStatement query = connection.prepareStatement(
                        engine.sql().forStream("effective_binding", owner.id()))) {
                    query.setLong(1, consumer.id());
                    try (ResultSet row = query.executeQuery()) {
                        if (!row.next()) {
                            return Optional.<Binding>empty();
                        }
                        List<String> patterns = Arrays.asList((String[]) row.getArray(2).getArray());
                        return patterns.isEmpty() ? Optional.<Binding>empty()
                                : Optional.of(new Binding(stream, name, row.getString(1), patterns, row.getString(3),
                                row.getTimestamp(4).toInstant(), row.getTimestamp(5).toInstant()));
                    }
                }
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
            String declared = groups.declaration(connection, consumer.id());
            ConsumerConfig config = declared == null ? ConsumerConfig.defaults()
                    : GroupDocument.read(GroupDocument.parse(declared));
            try (PreparedStatement cursor = connection.prepareStatement(
                    engine.sql().forStream("inspect_group", owner.id()))) {
                cursor.setLong(1, consumer.id());
                try (ResultSet row = cursor.executeQuery()) {
                    row.next();
                    return new ConsumerInspection(consumer, declared == null ? "{}" : declared, config,
                            config.resolvedMessage(), config.resolvedMessageMax(), row.getLong(1), row.getLong(2),
                            row.getLong(3), row.getInt(4), exceptionCounts(connection, owner.id(), consumer.id()));
                }
            }
        });
    }

    private Map<String, Long> exceptionCounts(Connection connection, long streamId, long groupId) throws SQLException {
        Map<String, Long> counts = new LinkedHashMap<>();
        try (PreparedStatement query = connection.prepareStatement(engine.sql().forStream("exception_counts", streamId))) {
            query.setLong(1, groupId);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    counts.put(rows.getString(1), rows.getLong(2));
                }
            }
        }
        return counts;
    }

    private void refuseWhileLive(Connection connection, long groupId) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(engine.sql().get("group_live_instances_except"))) {
            query.setLong(1, groupId);
            query.setArray(2, connection.createArrayOf("int8", new Long[0]));
            try (ResultSet row = query.executeQuery()) {
                row.next();
                if (row.getLong(1) > 0) {
                    throw new SqlStreamsException(Code.SQL0015, describe() + " still has " + row.getLong(1)
                            + " live instance(s); stop them or destroy with force");
                }
            }
        }
    }

    private void refuseWithDeliveries(Connection connection, long streamId, long groupId) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                engine.sql().forStream("group_has_deliveries", streamId))) {
            query.setLong(1, groupId);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                if (row.getBoolean(1)) {
                    throw new SqlStreamsException(Code.SQL0016, describe() + " still has delivery rows (retries or"
                            + " dead letters); let them resolve or destroy with force");
                }
            }
        }
    }

    private Consumer require(Connection connection) throws SQLException {
        streams.require(connection, stream);
        return groups.require(connection, stream, name);
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
            throw StreamRows.notFound(stream);
        }
    }

    private String describe() {
        return "consumer group \"" + name + "\" on stream \"" + stream + "\"";
    }
}
