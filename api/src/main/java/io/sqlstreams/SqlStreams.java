package io.sqlstreams;

import java.util.List;
import java.util.ServiceLoader;

import javax.sql.DataSource;

import io.sqlstreams.spi.SqlStreamsProvider;

/**
 * The client: one installation (a PostgreSQL schema) reached through a caller-owned {@link DataSource}.
 * Every resource is reached through a handle built from it; a handle does no I/O and cannot fail, and
 * every verb resolves its name when it is called. Closing the client closes what it created itself (the thread
 * pool that runs handlers in Java SE), never the caller's data source.
 *
 * <pre>{@code
 * try (SqlStreams client = SqlStreams.create(dataSource, ClientConfig.defaults())) {
 *     StreamHandle<PaymentRequestedV1> payments = client.stream("payments.requested", PaymentRequestedV1.class);
 *     payments.register(StreamConfig.defaults());
 * }
 * }</pre>
 */
public interface SqlStreams extends AutoCloseable {

    /**
     * A client over {@code dataSource}. It checks the configuration and that PostgreSQL answers; it creates
     * nothing (the first stream registration creates the installation's tables).
     *
     * @throws InvalidConfigurationException (SQL0108) or {@link InvalidNameException} (SQL0109) for a bad
     *                                       configuration
     */
    static SqlStreams create(DataSource dataSource, ClientConfig config) {
        return ServiceLoader.load(SqlStreamsProvider.class, SqlStreams.class.getClassLoader()).findFirst()
                .orElseThrow(() -> new IllegalStateException(
                        "no sqlstreams implementation on the class path: add io.sqlstreams:sqlstreams-extension"))
                .create(dataSource, config);
    }

    /** A client with {@link ClientConfig#defaults()}. */
    static SqlStreams create(DataSource dataSource) {
        return create(dataSource, ClientConfig.defaults());
    }

    /** The configuration this client runs with, defaults resolved. */
    ClientConfig config();

    /** A handle on the stream called {@code name}, whose payloads are {@code payloadType}. No I/O. */
    <T> StreamHandle<T> stream(String name, Class<T> payloadType);

    /** Every registered stream, ordered by name; empty before anything was registered. */
    List<Stream> streams();

    /**
     * Every consumer group's effective routing binding set, plus the changed sets still waiting for a group's
     * live instances to stop, ordered by stream then group. Groups reading the whole stream do not appear.
     */
    List<Binding> bindings();

    /** A handle on the schedule called {@code name}. No I/O. */
    SchedulerHandle scheduler(String name);

    /** Every registered schedule, ordered by name; empty before anything was registered. */
    List<Schedule> schedules();

    /** This process's part in the system manager. No I/O. */
    ManagerHandle manager();

    /** The installation itself: its registration, DDL version and destruction. No I/O. */
    SystemHandle system();

    /**
     * Shuts down the thread pools this client created; the data source, and any executor or thread factory the
     * caller handed in, stay the caller's. Stop the client's sessions and close its producers first: a handler
     * started after the close is refused and retried later. Closing twice does nothing more.
     */
    @Override
    void close();
}
