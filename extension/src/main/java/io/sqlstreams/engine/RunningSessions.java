package io.sqlstreams.engine;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.sqlstreams.ConsumerSession;

/**
 * The sessions a client's consumer instances are running, so that closing the client stops them first, and so
 * that what runs beside sessions (the system manager) starts with the first and stops with the last.
 */
public final class RunningSessions {
    /** Told when the client's first session starts and when its last one has stopped. */
    public interface Companion {
        void firstSessionStarting();

        void lastSessionStopped();
    }

    private static final Companion NONE = new Companion() {
        @Override
        public void firstSessionStarting() {
        }

        @Override
        public void lastSessionStopped() {
        }
    };

    private final Set<ConsumerSession> running = ConcurrentHashMap.newKeySet();
    private volatile Companion companion = NONE;

    /** Sets what starts and stops beside the sessions; once, before the first session. */
    public void accompanyBy(Companion beside) {
        companion = beside;
    }

    public synchronized void add(ConsumerSession session) {
        if (running.add(session) && running.size() == 1) {
            companion.firstSessionStarting();
        }
    }

    public synchronized void remove(ConsumerSession session) {
        if (running.remove(session) && running.isEmpty()) {
            companion.lastSessionStopped();
        }
    }

    /** Stops every running session, one after another, each draining within its shutdown timeout. */
    public void stopAll() {
        List.copyOf(running).forEach(ConsumerSession::close);
    }
}
