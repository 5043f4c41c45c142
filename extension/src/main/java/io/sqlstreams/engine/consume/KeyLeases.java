package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.sqlstreams.Code;
import io.sqlstreams.Concurrency;
import io.sqlstreams.engine.consume.KeyGrant.KeyState;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.GroupIds;
import io.sqlstreams.engine.query.KeyLeaseQueries.WantedKey;
import io.sqlstreams.engine.query.KeyLeaseQueries;

/**
 * Message key leases: at most one in-flight delivery per key of a group under the exclusive and ordered
 * policies. The variant follows the message: a compacted one must still be its key's head (re-checked with a
 * fresh snapshot after taking the lease), an ordered one must have no unresolved predecessor, any other just
 * needs the key free. On the exception path a lease is one message's and lasts its timeout + grace + record
 * margin; a fresh range takes the leases of all its key chains at once under its own token, and its commit
 * gives them back.
 */
final class KeyLeases implements KeyChainGate.RangeKeys {
    /** The answer to one lease request. */
    enum Verdict { ACQUIRED, BUSY, SUPERSEDED }

    /** A lease request's answer and, when acquired, the token that releases it. */
    record Lease(Verdict verdict, String token) {
    }

    private final Engine engine;
    private final RegisteredGroup group;
    private final GroupIds ids;
    private final KeyLeaseQueries queries;

    KeyLeases(Engine engine, RegisteredGroup group) {
        this.engine = engine;
        this.group = group;
        this.ids = group.ids();
        this.queries = new KeyLeaseQueries(engine.sql());
    }

    /** Whether a delivery takes a key lease at all: a key-holding policy and a message key. */
    static boolean needed(Delivery delivery) {
        Concurrency policy = delivery.options().concurrency();
        return delivery.messageKey() != null && policy != null && policy.holdsKey();
    }

    /** Asks for the key lease of one delivery on the exception path. */
    Lease take(Delivery delivery, Duration duration) {
        String token = UUID.randomUUID().toString();
        Verdict verdict;
        if (delivery.compactionRank() != null) {
            verdict = engine.database().autoCommit(describeTake(delivery),
                    connection -> takeOfHead(connection, delivery, token, duration));
        } else {
            boolean ordered = delivery.options().concurrency() == Concurrency.ORDERED;
            WantedKey request = new WantedKey(delivery.messageKey(), delivery.messageId(), ordered, ordered);
            verdict = takeAll(List.of(request), List.of(), token, duration).states().get(0) == KeyState.ACQUIRED
                    ? Verdict.ACQUIRED : Verdict.BUSY;
        }
        return new Lease(verdict, verdict == Verdict.ACQUIRED ? token : null);
    }

    /**
     * Asks for several keys' leases under one token in one round trip, giving back the leases of {@code finished}
     * keys under that token in the same statement. A range passes its own lease token, so its own messages never
     * hold its chains back and its commit releases what it still holds.
     *
     * @return each request's state, in request order, and how many finished keys' leases were still there to give
     *         back (fewer than asked: a lease expired and was taken over)
     */
    @Override
    public KeyGrant takeAll(List<WantedKey> requests, List<String> finished, String token, Duration duration) {
        KeyLeaseQueries.KeysRequest request = new KeyLeaseQueries.KeysRequest(token, requests, finished, duration);
        KeyLeaseQueries.KeysGrant grant = engine.database().autoCommit("taking " + requests.size()
                + " key lease(s) of " + group.describe(), connection -> queries.takeKeys(connection, ids, request));
        Map<String, KeyState> byKey = new HashMap<>();
        for (KeyLeaseQueries.KeyAnswer answer : grant.answers()) {
            byKey.put(answer.messageKey(), answer.taken() ? KeyState.ACQUIRED
                    : answer.afterException() ? KeyState.AFTER_EXCEPTION : KeyState.BUSY);
        }
        List<KeyState> states = new ArrayList<>(requests.size());
        for (WantedKey key : requests) {
            states.add(byKey.getOrDefault(key.messageKey(), KeyState.BUSY));
        }
        return new KeyGrant(states, (int) grant.released());
    }

    /** Key leases of a range that were gone when given back: a run outlived its lease. */
    @Override
    public void warnTakenOver(ClaimedRange range, long lost) {
        engine.diagnostics().event(Code.SQL0127, lost + " key lease(s) of " + range.describe()
                + " of " + group.describe() + " expired mid-run and were taken over; runs of those keys may have"
                + " overlapped another delivery");
    }

    private String describeTake(Delivery delivery) {
        return "taking the key lease of message " + delivery.messageId() + " of " + group.describe();
    }

    /** Releases a lease; a release that matches nothing means the run outlived its lease and may have overlapped. */
    void release(Delivery delivery, String token) {
        boolean released = engine.database().autoCommit("releasing the key lease of message " + delivery.messageId()
                + " of " + group.describe(),
                connection -> queries.release(connection, ids, delivery.messageKey(), token));
        if (!released) {
            engine.diagnostics().event(Code.SQL0127, "the key lease of message "
                    + delivery.messageId() + " of " + group.describe() + " expired mid-run and was taken over;"
                    + " its run may have overlapped another delivery of the key");
        }
    }

    private Verdict takeOfHead(Connection connection, Delivery delivery, String token, Duration duration)
            throws SQLException {
        KeyLeaseQueries.HeadLease lease = new KeyLeaseQueries.HeadLease(delivery.messageKey(), delivery.messageId(),
                token);
        KeyLeaseQueries.HeadAnswer answer = queries.takeOfHead(connection, ids, lease, duration);
        if (!answer.current()) {
            return Verdict.SUPERSEDED;
        }
        if (!answer.taken()) {
            return Verdict.BUSY;
        }
        return queries.dropIfSuperseded(connection, ids, lease) ? Verdict.SUPERSEDED : Verdict.ACQUIRED;
    }
}
