package io.sqlstreams.engine.consume;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;

import io.sqlstreams.ConsumerSession;
import io.sqlstreams.engine.EngineTestBase;

/** What the delivery and crash tests share: a ledger of handler runs and the sessions closed after each test. */
abstract class DeliveryTestBase extends EngineTestBase {
    protected final DeliveryLedger ledger = new DeliveryLedger();
    protected final List<ConsumerSession> sessions = new ArrayList<>();

    @AfterEach
    void closeSessions() {
        sessions.forEach(ConsumerSession::close);
    }
}
