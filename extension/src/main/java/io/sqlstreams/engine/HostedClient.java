package io.sqlstreams.engine;

import java.sql.Connection;
import java.util.List;
import java.util.concurrent.ExecutorService;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.SqlStreams;

/**
 * The client as an application server hosts it: the public API, plus a group whose sessions run their handlers
 * on an executor the server names and a producer that writes inside the server's JTA transaction. Internal: the
 * Jakarta integration is its one user.
 */
public interface HostedClient extends SqlStreams {

    /** {@code stream(stream, payloadType).consumer(group).register(declaration)}, able to run hosted sessions. */
    <T> HostedConsumer<T> registerConsumer(String stream, String group, Class<T> payloadType,
                                           ConsumerConfig declaration);

    /** {@code stream(stream, payloadType).producer().register()}, able to join the server's transaction. */
    <T> HostedProducer<T> registerProducer(String stream, Class<T> payloadType);

    /** Where the host writes its own log lines, through the client's logger. */
    Diagnostics diagnostics();

    /** A registered group whose sessions may run their handlers on an executor of the host's. */
    interface HostedConsumer<T> extends ConsumerInstance<T> {
        /** {@link #start(MessageHandler, ConsumeOptions)} with handlers on {@code handlerExecutor}. */
        ConsumerSession start(MessageHandler<T> handler, ConsumeOptions options, ExecutorService handlerExecutor);

        /**
         * Like {@link #start(MessageHandler, ConsumeOptions, ExecutorService)}, with each message run in a transaction
         * of the host's that also records its success, so the handler's writes and the message's outcome commit
         * together. A range's messages run in id order, one range per handler thread.
         */
        ConsumerSession startEnlisted(MessageHandler<T> handler, HostTransactions transactions, ConsumeOptions options,
                                      ExecutorService handlerExecutor);
    }

    /** A producer that can also write inside a transaction the server manages. */
    interface HostedProducer<T> extends Producer<T> {
        /**
         * Produces on {@code enlisted}, a connection the server has enlisted in its JTA transaction: the messages
         * commit or roll back with it, in argument order.
         */
        List<ProduceResult> produceInManagedTransaction(Connection enlisted, List<ProduceItem<T>> items);

        /**
         * Messages of this stream were committed by a transaction the library did not commit itself (the server's):
         * wakes the stream's idle sessions in every process, as the library's own commits do.
         */
        void announceCommit();
    }
}
