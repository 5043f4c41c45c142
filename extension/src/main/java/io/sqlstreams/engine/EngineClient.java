package io.sqlstreams.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import javax.sql.DataSource;

import io.sqlstreams.Binding;
import io.sqlstreams.ClientConfig;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.binding.BindingDeclaration;
import io.sqlstreams.engine.codec.PayloadCodec;
import io.sqlstreams.engine.query.BindingQueries;
import io.sqlstreams.engine.schema.SchemaMigrator;
import io.sqlstreams.engine.sql.Database;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.engine.stream.EngineStreamHandle;
import io.sqlstreams.engine.stream.StreamRows;

/** The engine's {@link SqlStreams}: a caller-owned data source plus the captured configuration. */
public final class EngineClient implements SqlStreams {
    private final Engine engine;

    private EngineClient(Engine engine) {
        this.engine = engine;
    }

    /**
     * Validates the configuration, checks that PostgreSQL answers, and returns the client. Nothing is created
     * in the database until the first registration.
     */
    public static EngineClient create(DataSource dataSource, ClientConfig config, EngineEnvironment environment) {
        Objects.requireNonNull(dataSource, "dataSource");
        ClientConfig resolved = config == null ? ClientConfig.defaults() : config;
        resolved.validate();
        Diagnostics diagnostics = new Diagnostics(resolved.logger(), environment.clock());
        Database database = new Database(dataSource, resolved.retry(), environment.sleeper(), resolved.logger());
        Sql sql = new Sql(resolved.schema());
        database.autoCommit("connecting to PostgreSQL", connection -> connection.isValid(5));
        String declarer = Declarer.identify();
        Engine engine = new Engine(resolved, database, sql, new SchemaMigrator(database, sql), diagnostics,
                new PayloadCodec(), environment, declarer,
                new BindingDeclaration(sql, diagnostics, environment.clock(), declarer));
        return new EngineClient(engine);
    }

    @Override
    public ClientConfig config() {
        return engine.config();
    }

    @Override
    public <T> StreamHandle<T> stream(String name, Class<T> payloadType) {
        return new EngineStreamHandle<>(engine, name, payloadType);
    }

    @Override
    public List<Stream> streams() {
        if (!engine.migrator().installed()) {
            return List.of();
        }
        StreamRows rows = new StreamRows(engine.sql());
        return engine.database().autoCommit("listing streams", rows::all);
    }

    @Override
    public List<Binding> bindings() {
        if (!engine.migrator().installed()) {
            return List.of();
        }
        BindingQueries queries = new BindingQueries(engine.sql());
        return engine.database().autoCommit("listing bindings", connection -> {
            List<Binding> bindings = new ArrayList<>();
            for (Stream stream : new StreamRows(engine.sql()).all(connection)) {
                bindings.addAll(queries.ofStream(connection, stream));
            }
            return bindings;
        });
    }
}
