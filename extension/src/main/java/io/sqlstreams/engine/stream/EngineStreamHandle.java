package io.sqlstreams.engine.stream;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

import io.sqlstreams.engine.alert.EngineAlertsHandle;
import io.sqlstreams.engine.alert.RegistrationAlertPass;
import io.sqlstreams.engine.alert.AlertOwnerLookup;
import io.sqlstreams.AlertsHandle;
import io.sqlstreams.Code;
import io.sqlstreams.Consumer;
import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.DestroyOptions;
import io.sqlstreams.GroupFence;
import io.sqlstreams.KeyHandle;
import io.sqlstreams.MaintenanceHandle;
import io.sqlstreams.MessageWhereabouts;
import io.sqlstreams.ProducerHandle;
import io.sqlstreams.ResourceMetricsHandle;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.StreamVersionHealth;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.Names;
import io.sqlstreams.engine.consume.EngineConsumerHandle;
import io.sqlstreams.engine.key.EngineKeyHandle;
import io.sqlstreams.engine.metrics.EngineResourceMetrics;
import io.sqlstreams.engine.operator.MessageLocator;
import io.sqlstreams.engine.produce.EngineProducerHandle;
import io.sqlstreams.engine.query.StreamHealthQueries;
import io.sqlstreams.engine.query.StreamQueries;

/** A stream by name; every verb resolves the name when it runs. */
public final class EngineStreamHandle<T> implements StreamHandle<T> {
    private final Engine engine;
    private final String name;
    private final Class<T> payloadType;
    private final StreamQueries streams;

    public EngineStreamHandle(Engine engine, String name, Class<T> payloadType) {
        this.engine = engine;
        this.name = name;
        this.payloadType = payloadType;
        this.streams = new StreamQueries(engine.sql());
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Class<T> payloadType() {
        return payloadType;
    }

    @Override
    public Stream register(StreamConfig config) {
        Names.userStream(name);
        Stream registered = new StreamDeclaration(engine.database(), engine.sql(), engine.migrator(),
                engine.diagnostics(), engine.declarer()).register(name, config);
        RegistrationAlertPass.run(engine, name);
        return registered;
    }

    @Override
    public Optional<Stream> get() {
        if (!Names.RESOURCE_NAME.matcher(name == null ? "" : name).matches() || !engine.migrator().installed()) {
            return Optional.empty();
        }
        return engine.database().autoCommit("reading stream \"" + name + "\"", connection -> streams.find(connection, name));
    }

    @Override
    public Stream rename(String newName) {
        Names.resource("stream", name);
        Names.userStream(newName);
        requireInstalled();
        return engine.database().inTransaction("renaming stream \"" + name + "\"", connection -> {
            if (name.equals(newName)) {
                return streams.require(connection, name);
            }
            long id = streams.rename(connection, name, newName).orElseThrow(() -> StreamQueries.notFound(name));
            streams.logSnapshot(connection, id, engine.declarer());
            return streams.require(connection, newName);
        });
    }

    @Override
    public void destroy(DestroyOptions options) {
        guardedDestroy(options, "destroying", (connection, stream) -> {
            streams.dropFamily(connection, stream.id());
            streams.delete(connection, stream.id());
        });
    }

    @Override
    public void checkDestroy(DestroyOptions options) {
        guardedDestroy(options, "checking the destroy of", (connection, stream) -> {
        });
    }

    /** Runs {@code deletion} once the stream passed destroy's guards, in their transaction. */
    private void guardedDestroy(DestroyOptions options, String activity, Deletion deletion) {
        Names.resource("stream", name);
        if (!engine.config().allowDestroy()) {
            throw new SqlStreamsException(Code.SQL0008, "destroying stream \"" + name
                    + "\" needs ClientConfig.allowDestroy");
        }
        boolean force = options != null && options.force();
        requireInstalled();
        engine.database().inTransaction(activity + " stream \"" + name + "\"", connection -> {
            Stream stream = streams.lock(connection, name).orElseThrow(() -> StreamQueries.notFound(name));
            if (!force && streams.hasMessages(connection, stream.id())) {
                throw new SqlStreamsException(Code.SQL0006, "stream \"" + name
                        + "\" still holds messages; destroy with force to drop them");
            }
            deletion.run(connection, stream);
            return null;
        });
    }

    /** What a destroy deletes, or nothing for its check. */
    private interface Deletion {
        void run(Connection connection, Stream stream) throws SQLException;
    }

    @Override
    public List<StreamVersionHealth> health() {
        return readHealth("reading the payload versions", StreamHealthQueries::versions);
    }

    @Override
    public List<GroupFence> fences() {
        return readHealth("reading the fences",
                (queries, connection, streamId) -> queries.fences(connection, streamId, null));
    }

    private <R> R readHealth(String activity, HealthRead<R> read) {
        Names.resource("stream", name);
        requireInstalled();
        StreamHealthQueries queries = new StreamHealthQueries(engine.sql());
        return engine.database().inTransaction(activity + " of stream \"" + name + "\"", connection -> {
            queries.snapshot(connection);
            return read.apply(queries, connection, streams.require(connection, name).id());
        });
    }

    /** One read of {@link StreamHealthQueries} for the stream's id. */
    private interface HealthRead<R> {
        R apply(StreamHealthQueries queries, Connection connection, long streamId) throws SQLException;
    }

    @Override
    public List<Consumer> consumers() {
        Names.resource("stream", name);
        requireInstalled();
        return engine.database().autoCommit("listing the consumer groups of stream \"" + name + "\"", connection -> {
            streams.require(connection, name);
            return streams.consumers(connection, name);
        });
    }

    @Override
    public KeyHandle<T> key(String messageKey) {
        return new EngineKeyHandle<>(engine, name, payloadType, messageKey);
    }

    @Override
    public ConsumerHandle<T> consumer(String group) {
        return new EngineConsumerHandle<>(engine, name, group, payloadType);
    }

    @Override
    public ProducerHandle<T> producer() {
        return new EngineProducerHandle<>(engine, name, payloadType);
    }

    @Override
    public MaintenanceHandle janitor() {
        return new StreamMaintenanceHandle(engine, name, StreamWorkers.JANITOR);
    }

    @Override
    public MaintenanceHandle vacuum() {
        return new StreamMaintenanceHandle(engine, name, StreamWorkers.VACUUM);
    }

    @Override
    public AlertsHandle alerts() {
        return new EngineAlertsHandle(engine, AlertOwnerLookup.stream(new StreamQueries(engine.sql()), name));
    }

    @Override
    public ResourceMetricsHandle metrics() {
        return EngineResourceMetrics.ofStream(engine, name);
    }

    private void requireInstalled() {
        if (!engine.migrator().installed()) {
            throw StreamQueries.notFound(name);
        }
    }

    @Override
    public Optional<MessageWhereabouts> locate(long messageId) {
        return new MessageLocator(engine, name).locate(messageId);
    }

    @Override
    public List<MessageWhereabouts> locateKey(String messageKey, int limit) {
        return new MessageLocator(engine, name).locateKey(messageKey, limit);
    }
}
