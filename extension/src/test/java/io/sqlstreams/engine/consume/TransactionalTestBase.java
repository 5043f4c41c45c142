package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.ConsumeFixtures.fastSession;
import static org.awaitility.Awaitility.await;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;

import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.engine.consume.DeliveryTables.ExceptionRow;

/**
 * What the tests of handlers writing inside the library's transaction share ({@link TransactionalHandlerTest},
 * {@link BatchHandlerTest}): effects tables dropped after each test, scenarios, and relaxed session options.
 */
abstract class TransactionalTestBase extends DeliveryTestBase {
    protected static final Duration PATIENCE = Duration.ofSeconds(30);

    private final List<Effects> effectTables = new ArrayList<>();

    @AfterEach
    void dropEffectTables() throws SQLException {
        // Sessions first, so no handler transaction still writes to a table being dropped.
        sessions.forEach(ConsumerSession::close);
        sessions.clear();
        for (Effects effects : effectTables) {
            effects.drop();
        }
    }

    /** A new effects table, dropped after the test. */
    protected Effects effects(String name) throws SQLException {
        Effects effects = Effects.create(database, name);
        effectTables.add(effects);
        return effects;
    }

    /** A scenario on stream {@code tx.<name>} that logs failures, with {@code count} messages produced up front. */
    protected DeliveryScenario scenario(String name, ConsumerConfig declaration, int count) {
        return DeliveryScenario.create(client, database, "tx." + name, DeliveryLogMode.FAILURES, declaration, count);
    }

    /** As in DeliveryOutcomesTest: fast polls, but a queue margin no loaded machine outruns. */
    protected static ConsumeOptions.Builder relaxedSession() {
        return fastSession().queueMargin(Duration.ofSeconds(5));
    }

    protected static ExceptionRow awaitStatus(DeliveryTables tables, long messageId, String status) {
        return await().atMost(PATIENCE).pollInterval(20, TimeUnit.MILLISECONDS)
                .until(() -> tables.exception(messageId).orElse(null),
                        row -> row != null && row.status().equals(status));
    }

    /** Produce options of an ordered message of {@code key}. */
    protected static ProduceOptions ordered(String key) {
        return ProduceOptions.builder().messageKey(key)
                .message(MessageOptions.builder().concurrency(Concurrency.ORDERED).build()).build();
    }
}
