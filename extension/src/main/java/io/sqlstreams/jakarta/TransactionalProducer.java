package io.sqlstreams.jakarta;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import javax.sql.DataSource;

import io.sqlstreams.engine.sql.DatabaseFailures;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.HostedClient;

/**
 * The injected producer: inside a JTA transaction it writes through a connection of the server's data source,
 * which the server enlists in that transaction, so the message commits or rolls back with the caller's other
 * work (a JPA write, say), and the stream's sessions are woken once that transaction commits; outside one it
 * produces through the engine's automatic batching and commits itself.
 */
final class TransactionalProducer<T> implements Producer<T> {
    private final String stream;
    private final HostedClient.HostedProducer<T> engine;
    private final DataSource dataSource;
    private final ContainerResources transactions;

    TransactionalProducer(String stream, HostedClient.HostedProducer<T> engine, DataSource dataSource,
                          ContainerResources transactions) {
        this.stream = stream;
        this.engine = engine;
        this.dataSource = dataSource;
        this.transactions = transactions;
    }

    @Override
    public ProduceResult produce(T message, ProduceOptions options) {
        if (!transactions.inTransaction()) {
            return engine.produce(message, options);
        }
        return produceEnlisted(List.of(ProduceItem.of(message, options))).get(0);
    }

    @Override
    public List<ProduceResult> produceBatch(List<ProduceItem<T>> items) {
        if (!transactions.inTransaction()) {
            return engine.produceBatch(items);
        }
        return produceEnlisted(items);
    }

    @Override
    public ProduceResult produce(Connection connection, T message, ProduceOptions options) {
        return engine.produce(connection, message, options);
    }

    @Override
    public ProduceResult produceInTransaction(TransactionalWork<T> work, ProduceOptions options) {
        return engine.produceInTransaction(work, options);
    }

    /** The engine producer is shared by every injection point of the stream and closed with the application. */
    @Override
    public void close() {
    }

    private List<ProduceResult> produceEnlisted(List<ProduceItem<T>> items) {
        List<ProduceResult> results;
        try (Connection enlisted = dataSource.getConnection()) {
            results = engine.produceInManagedTransaction(enlisted, items);
        } catch (SQLException failure) {
            throw failed(failure);
        }
        transactions.afterCommit(engine::announceCommit);
        return results;
    }

    private SqlStreamsException failed(SQLException failure) {
        return DatabaseFailures.translate("producing to stream \"" + stream + "\" in the caller's JTA transaction",
                failure);
    }
}
