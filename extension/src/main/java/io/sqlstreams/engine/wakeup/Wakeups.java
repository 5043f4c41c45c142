package io.sqlstreams.engine.wakeup;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.sql.Database;
import io.sqlstreams.engine.sql.Sql;

/**
 * Wake-up on produce for one client: its commits are announced ({@link CommitAnnouncer}) and its idle sessions
 * woken by announcements from any process ({@link WakeupListener}); ClaimPollRate polling stays the fallback, so a
 * lost or late announcement delays a message by one poll at most. {@link #disabled()} does neither.
 */
public final class Wakeups implements AutoCloseable {
    /** A session's subscription; closing it stops the session's wake-ups. */
    public interface Subscription extends AutoCloseable {
        @Override
        void close();
    }

    private static final Subscription NONE = () -> {
    };

    private final CommitAnnouncer announcer;
    private final WakeupListener listener;

    private Wakeups(CommitAnnouncer announcer, WakeupListener listener) {
        this.announcer = announcer;
        this.listener = listener;
    }

    /** Wake-up for one client; nothing starts until its first commit or its first session. */
    public static Wakeups of(ClientConfig config, Database database, Sql sql, Diagnostics diagnostics,
                             EngineEnvironment environment) {
        return config.disableWakeup() ? disabled()
                : new Wakeups(new CommitAnnouncer(database, sql, diagnostics, environment),
                        new WakeupListener(database, sql, diagnostics, environment, config.retry()));
    }

    public static Wakeups disabled() {
        return new Wakeups(null, null);
    }

    /** Messages of stream {@code streamId} committed: wake its sessions, here and in other processes. */
    public void committed(long streamId) {
        if (announcer != null) {
            announcer.committed(streamId);
        }
    }

    /** Runs {@code wake} (quickly, without blocking) whenever stream {@code streamId} commits messages. */
    public Subscription subscribe(long streamId, Runnable wake) {
        return listener == null ? NONE : listener.subscribe(streamId, wake);
    }

    /** Whether this client listens for announcements right now (a session runs and the probe arrived). */
    public boolean listening() {
        return listener != null && listener.listening();
    }

    /** Notifications this client sent, and this schema's it received; zero when disabled. */
    public long announcementsSent() {
        return announcer == null ? 0 : announcer.sent();
    }

    public long announcementsReceived() {
        return listener == null ? 0 : listener.received();
    }

    @Override
    public void close() {
        if (listener != null) {
            listener.close();
        }
        if (announcer != null) {
            announcer.close();
        }
    }
}
