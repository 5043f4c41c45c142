package io.sqlstreams.engine.produce;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.Producer;
import io.sqlstreams.ProducerConfig;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.testing.Sql;

/**
 * What the tests that produce share (the produce tests and the key tests), besides an {@link EngineTestBase}'s
 * database and client: plain SQL on the class's schema, and every producer a test registers through
 * {@link #producer}, closed after the test.
 */
public abstract class ProduceTestBase extends EngineTestBase {
    protected Sql sql;
    private final List<Producer<?>> producers = new ArrayList<>();

    @BeforeEach
    void openSql() {
        this.sql = new Sql(database);
    }

    @AfterEach
    void closeProducers() {
        producers.forEach(Producer::close);
    }

    /** A producer of {@code type} on {@code owner}'s stream {@code streamName}, closed after the test. */
    protected <T> Producer<T> producer(EngineClient owner, String streamName, Class<T> type, ProducerConfig config) {
        Producer<T> producer = owner.stream(streamName, type).producer().register(config);
        producers.add(producer);
        return producer;
    }

    /** A producer with the default configuration on the test client's stream, closed after the test. */
    protected <T> Producer<T> producer(String streamName, Class<T> type) {
        return producer(client, streamName, type, ProducerConfig.defaults());
    }

    /**
     * Another client on the test schema, through {@code dataSource}, whose retries stay short: {@code maxRetries}
     * retries, backing off from {@code baseDelay} to at most {@code maxDelay}. It logs to {@link #logger}.
     */
    protected EngineClient clientWithRetries(DataSource dataSource, int maxRetries, Duration baseDelay,
                                             Duration maxDelay) {
        return EngineClient.create(dataSource, ClientConfig.builder().schema(database.schema()).logger(logger)
                .retry(RetryPolicy.builder().maxRetries(maxRetries).baseDelay(baseDelay).maxDelay(maxDelay).build())
                .build(), EngineEnvironment.standalone());
    }
}
