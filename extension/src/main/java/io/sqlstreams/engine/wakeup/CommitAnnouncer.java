package io.sqlstreams.engine.wakeup;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.loop.Loop;
import io.sqlstreams.engine.query.WakeupQueries;
import io.sqlstreams.engine.sql.Database;
import io.sqlstreams.engine.sql.Sql;

/**
 * Announces this client's produce commits to every listening session, coalesced: one notification names every
 * stream that committed since the last one, sent from a thread of its own in its own transaction (never inside a
 * producer's, whose commit would then take PostgreSQL's database-wide notification lock), at most one per
 * {@link #SPACING}; its thread ends after a second without commits and the next commit starts another. A failed
 * announcement is dropped: the sessions' polling finds the messages anyway.
 */
final class CommitAnnouncer implements AutoCloseable {
    static final Duration SPACING = Duration.ofMillis(5);
    private static final Duration IDLE = Duration.ofSeconds(1);

    private final Database database;
    private final String schema;
    private final Diagnostics diagnostics;
    private final EngineEnvironment environment;
    private final WakeupQueries queries;
    private final Set<Long> committed = ConcurrentHashMap.newKeySet();
    private final AtomicLong sent = new AtomicLong();
    private Loop loop;
    private boolean closed;

    CommitAnnouncer(Database database, Sql sql, Diagnostics diagnostics, EngineEnvironment environment) {
        this.database = database;
        this.schema = sql.schema();
        this.diagnostics = diagnostics;
        this.environment = environment;
        this.queries = new WakeupQueries(sql);
    }

    /** Stream {@code streamId} committed messages: announce it with the next notification. */
    void committed(long streamId) {
        committed.add(streamId);
        running().ifPresent(Loop::wake);
    }

    /** How many notifications this announcer has sent. */
    long sent() {
        return sent.get();
    }

    private synchronized Optional<Loop> running() {
        if (closed) {
            return Optional.empty();
        }
        if (loop == null) {
            loop = Loop.start(environment.threads(), "sqlstreams-announcer-" + schema,
                    this::pass, (failed, cause) -> diagnostics.event(cause.code(),
                            "the commit announcer stopped; sessions find new messages by polling alone: "
                                    + cause.getMessage()));
        }
        return Optional.of(loop);
    }

    private void pass(Loop self) throws InterruptedException {
        self.pauseUnlessWoken(IDLE);
        synchronized (this) {
            if (committed.isEmpty()) {
                loop = null;
                self.stop();
                return;
            }
        }
        List<Long> streams = new ArrayList<>(committed);
        committed.removeAll(streams);
        try {
            database.autoCommit("announcing commits", connection -> {
                for (String payload : Announcement.streams(schema, streams)) {
                    queries.announce(connection, payload);
                    sent.incrementAndGet();
                }
                return null;
            });
        } catch (SqlStreamsException failed) {
            diagnostics.debug(failed.code(), () -> "announcing commits of streams " + streams
                    + " failed; their sessions find the messages by polling: " + failed.getMessage());
        }
        self.pause(SPACING);
    }

    @Override
    public void close() {
        Loop stopping;
        synchronized (this) {
            closed = true;
            stopping = loop;
        }
        if (stopping != null) {
            stopping.stopAndJoin(Duration.ofSeconds(5));
        }
    }
}
