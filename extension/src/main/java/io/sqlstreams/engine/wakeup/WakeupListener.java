package io.sqlstreams.engine.wakeup;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.sqlstreams.Code;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.loop.Loop;
import io.sqlstreams.engine.query.WakeupQueries;
import io.sqlstreams.engine.sql.Database;
import io.sqlstreams.engine.sql.Sql;

/**
 * The client's one listener for commit announcements: while any session subscribes, it holds one connection that
 * listens, and wakes the sessions of every stream an announcement names. Before it counts as listening it sends
 * itself a probe. Connections through a pooler or proxy (see {@link ListeningConnection}), a probe that never
 * arrives or a data source that is not pgjdbc's make wake-up unavailable for the client's life (SQL0142), and its
 * sessions poll.
 * A connection that fails is SQL0143: every session is woken once (an announcement may have been missed) and the
 * listener connects again, backing off on the client's retry curve, until it listens again (SQL0144, and every
 * session woken once more). With its last subscriber it stops and gives its connection back.
 */
final class WakeupListener implements AutoCloseable {
    static final Duration RECEIVE_WAIT = Duration.ofMillis(500);
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);
    static final Duration KEEPALIVE = Duration.ofSeconds(15);

    private final Database database;
    private final String schema;
    private final Diagnostics diagnostics;
    private final EngineEnvironment environment;
    private final RetryPolicy retry;
    private final WakeupQueries queries;
    private final Map<Long, Set<Runnable>> subscribers = new ConcurrentHashMap<>();
    private final AtomicLong received = new AtomicLong();
    private int subscriptions;
    private Loop loop;
    private volatile boolean unavailable;
    private volatile boolean listening;
    private boolean closed;

    WakeupListener(Database database, Sql sql, Diagnostics diagnostics, EngineEnvironment environment, RetryPolicy retry) {
        this.database = database;
        this.schema = sql.schema();
        this.diagnostics = diagnostics;
        this.environment = environment;
        this.retry = retry;
        this.queries = new WakeupQueries(sql);
    }

    /** Wakes {@code wake} whenever stream {@code streamId} is announced, until the subscription is closed. */
    synchronized Wakeups.Subscription subscribe(long streamId, Runnable wake) {
        if (loop == null && !unavailable && !closed) {
            loop = Loop.start(environment.threads(), "sqlstreams-wakeup-" + schema,
                    new Listening()::pass, (failed, cause) -> diagnostics.event(Code.SQL0143,
                            "the commit listener stopped; sessions find new messages by polling alone: "
                                    + cause.getMessage()));
        }
        subscribers.computeIfAbsent(streamId, id -> ConcurrentHashMap.newKeySet()).add(wake);
        subscriptions++;
        return () -> unsubscribe(streamId, wake);
    }

    /** Announcements of this client's schema received so far, probes included. */
    long received() {
        return received.get();
    }

    boolean listening() {
        return listening;
    }

    /** Whether this client found that it cannot listen (SQL0142). */
    boolean unavailable() {
        return unavailable;
    }

    private void unsubscribe(long streamId, Runnable wake) {
        Loop stopping;
        synchronized (this) {
            Set<Runnable> ofStream = subscribers.get(streamId);
            if (ofStream == null || !ofStream.remove(wake)) {
                return;
            }
            subscriptions--;
            if (subscriptions > 0) {
                return;
            }
            stopping = loop;
            loop = null;
        }
        stop(stopping);
    }

    /** One run of the listener's loop, from its first subscriber to its last: touched by the loop's thread only. */
    private final class Listening {
        private ListeningConnection connection;
        private Instant lastRound;
        private int failedConnects;
        private boolean lost;

        private void pass(Loop self) throws InterruptedException {
            try {
                if (connection == null) {
                    connect(self);
                } else {
                    listen();
                }
            } catch (SQLException | SqlStreamsException failure) {
                connectionFailed(self, failure);
            } finally {
                if (self.stopping() || unavailable) {
                    release();
                    self.stop();
                }
            }
        }

        private void connect(Loop self) throws SQLException, InterruptedException {
            try {
                connection = ListeningConnection.open(database.dataSource(), queries);
            } catch (ListeningConnection.Unsupported | LinkageError unsupported) {
                giveUp("the data source cannot listen: " + unsupported.getMessage());
                return;
            }
            lastRound = environment.clock().instant();
            if (!probeArrives(self)) {
                giveUp("a notification sent to the listening connection did not arrive within "
                        + PROBE_TIMEOUT.toSeconds() + " s");
                return;
            }
            failedConnects = 0;
            listening = true;
            if (lost) {
                lost = false;
                diagnostics.event(Code.SQL0144, "listening for commit announcements again; the sessions of "
                        + subscribers.keySet().size() + " stream(s) were woken");
                wakeAll();
            }
        }

        private boolean probeArrives(Loop self) throws SQLException {
            String token = UUID.randomUUID().toString();
            database.autoCommit("probing the commit listener",
                    probe -> {
                        queries.announce(probe, Announcement.probe(schema, token));
                        return null;
                    });
            Instant deadline = environment.clock().instant().plus(PROBE_TIMEOUT);
            while (!self.stopping() && environment.clock().instant().isBefore(deadline)) {
                for (Announcement announcement : deliver(connection.receive(RECEIVE_WAIT))) {
                    if (token.equals(announcement.probe())) {
                        return true;
                    }
                }
            }
            return self.stopping();
        }

        private void listen() throws SQLException {
            List<String> payloads = connection.receive(RECEIVE_WAIT);
            Instant now = environment.clock().instant();
            if (!payloads.isEmpty()) {
                deliver(payloads);
                lastRound = now;
            } else if (Duration.between(lastRound, now).compareTo(KEEPALIVE) > 0) {
                if (!connection.alive()) {
                    throw new SQLException("the listening connection no longer answers");
                }
                lastRound = now;
            }
        }

        /** Wakes the subscribers of every stream the payloads name; returns the payloads that were this schema's. */
        private List<Announcement> deliver(List<String> payloads) {
            List<Announcement> ours = payloads.stream()
                    .flatMap(payload -> Announcement.parse(schema, payload).stream()).toList();
            for (Announcement announcement : ours) {
                received.incrementAndGet();
                for (long streamId : announcement.streamIds()) {
                    subscribers.getOrDefault(streamId, Set.of()).forEach(Runnable::run);
                }
            }
            return ours;
        }

        private void connectionFailed(Loop self, Exception failure) throws InterruptedException {
            release();
            if (!lost) {
                lost = true;
                diagnostics.event(Code.SQL0143, "the connection listening for commit announcements failed;"
                        + " sessions poll until it is back, and were woken once: " + failure.getMessage());
                wakeAll();
            }
            Duration backoff = retry.calculateDelay(Math.min(failedConnects++, 10));
            self.pause(backoff);
        }

        private void release() {
            listening = false;
            if (connection != null) {
                connection.close();
                connection = null;
            }
        }

        private void giveUp(String why) {
            release();
            unavailable = true;
            diagnostics.event(Code.SQL0142, "commit announcements cannot be received, so sessions of this"
                    + " client find new messages by polling alone, every claimPollRate: " + why);
            wakeAll();
        }
    }

    private void wakeAll() {
        subscribers.values().forEach(wakes -> wakes.forEach(Runnable::run));
    }

    private void stop(Loop stopping) {
        if (stopping != null) {
            stopping.stopAndJoin(PROBE_TIMEOUT.plus(RECEIVE_WAIT).plusSeconds(1));
        }
    }

    @Override
    public void close() {
        Loop stopping;
        synchronized (this) {
            closed = true;
            stopping = loop;
            loop = null;
        }
        stop(stopping);
    }
}
