package io.sqlstreams.jakarta.beans;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.sqlstreams.ConsumerGroup;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.jakarta.SqlStreamsRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/**
 * A transactional charge-cards observer: inserts the payment's row through the application's data source (enlisted
 * in the message's transaction), then fails a "fail-once" payment's first attempt after writing.
 */
@ApplicationScoped
public class TransactionalObservers {
    /** The observer's table, created by the test; its primary key refuses a second row for a message. */
    public static final String TABLE = "public.tx_observer_charges";
    /** The message id of every run, in the order they started. */
    public static final List<Long> RUNS = new CopyOnWriteArrayList<>();

    @Inject
    SqlStreamsRuntime runtime;

    @Transactional
    void charge(@Observes @ConsumerGroup(stream = "payments.requested", group = "charge-cards") Payment payment,
                MessageMeta meta) throws SQLException {
        RUNS.add(meta.messageId());
        try (Connection connection = runtime.dataSource().getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO " + TABLE
                     + " (message_id, payment_order) VALUES (?, ?)")) {
            insert.setLong(1, meta.messageId());
            insert.setString(2, payment.order());
            insert.executeUpdate();
        }
        if (payment.behaviour().equals("fail-once") && meta.attempt() == 1) {
            throw new IllegalStateException("fails after writing " + payment.order());
        }
    }

    /** An observer that asks for a transaction of its own, which cannot commit with its message's outcome. */
    @ApplicationScoped
    public static class RequiresNew {
        @Transactional(Transactional.TxType.REQUIRES_NEW)
        void audit(@Observes @ConsumerGroup(stream = "audit", group = "archive") Payment payment) {
        }
    }
}
