package io.sqlstreams.bench;

import java.sql.SQLException;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageMeta;

/**
 * The handler of a chaos consumer process ({@link ChaosConsumerMain}). One run records its start in the
 * {@link RunLedger}, works a few milliseconds, writes the message's effect ({@link HandlerMode#TRANSACTIONAL} only:
 * through the connection the library lends it), fails or not as the {@link ChaosPlan} says, and records its end. The
 * effect is written before a planned failure, so the failure's savepoint must take it back.
 *
 * <p>It tells the harness on stdout ({@link HarnessLink}): {@code busy} (its first run is in the ledger),
 * {@code unrecorded <message id>} (a run whose start could not be written: it failed without doing anything) and
 * {@code unique-violation <message id>} (the effects table already held the message's effect: the run fails).
 */
final class ChaosHandler {
    static final String BUSY = "busy";
    static final String UNRECORDED = "unrecorded";
    static final String UNIQUE_VIOLATION = "unique-violation";
    private static final String UNIQUE_VIOLATION_STATE = "23505";

    /** What a run writes besides the ledger. */
    @FunctionalInterface
    private interface Effect {
        void write(MessageMeta meta) throws SQLException;
    }

    private final ChaosPlan plan;
    private final RunLedger ledger;
    private final String process;
    private final HandlerMode mode;
    private final AtomicBoolean busy = new AtomicBoolean();

    ChaosHandler(ChaosPlan plan, RunLedger ledger, String process, HandlerMode mode) {
        this.plan = plan;
        this.ledger = ledger;
        this.process = process;
        this.mode = mode;
    }

    /** Starts a session of {@code consumer} with this handler, in its mode, and the lab's options. */
    ConsumerSession start(ConsumerInstance<BenchPayload> consumer) {
        return switch (mode) {
            case PLAIN -> consumer.start(payload -> run(payload, meta -> { }), ChaosGroup.options(mode));
            case TRANSACTIONAL -> consumer.start((payload, lent) -> run(payload, meta -> ledger.effect(lent, meta)),
                    ChaosGroup.options(mode));
        };
    }

    private void run(BenchPayload payload, Effect effect) throws Exception {
        long startNanos = System.nanoTime();
        MessageMeta meta = MessageMeta.current();
        UUID run;
        try {
            run = ledger.start(meta, payload.id(), process, startNanos);
        } catch (SQLException e) {
            HarnessLink.report(UNRECORDED + " " + meta.messageId());
            throw e;
        }
        if (!busy.getAndSet(true)) {
            HarnessLink.report(BUSY);
        }
        Thread.sleep(ThreadLocalRandom.current().nextInt(1, 9));
        boolean fails = plan.message(payload.id()).behaviour().fails(meta.attempt());
        write(effect, meta, run, startNanos);
        ledger.finish(run, !fails, startNanos);
        if (fails) {
            throw new IllegalStateException("planned failure of message " + payload.id() + " (attempt "
                    + meta.attempt() + ")");
        }
    }

    /** Writes the effect; when that fails the run is recorded as a failure, and a unique violation is reported. */
    private void write(Effect effect, MessageMeta meta, UUID run, long startNanos) throws Exception {
        try {
            effect.write(meta);
        } catch (SQLException e) {
            if (UNIQUE_VIOLATION_STATE.equals(e.getSQLState())) {
                HarnessLink.report(UNIQUE_VIOLATION + " " + meta.messageId());
            }
            try {
                ledger.finish(run, false, startNanos);
            } catch (SQLException unrecorded) {
                e.addSuppressed(unrecorded);
            }
            throw e;
        }
    }
}
