package io.sqlstreams.engine;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.sqlstreams.ConsumerSession;

/** The sessions a client's consumer instances are running, so that closing the client stops them first. */
public final class RunningSessions {
    private final Set<ConsumerSession> running = ConcurrentHashMap.newKeySet();

    public void add(ConsumerSession session) {
        running.add(session);
    }

    public void remove(ConsumerSession session) {
        running.remove(session);
    }

    /** Stops every running session, one after another, each draining within its shutdown timeout. */
    public void stopAll() {
        List.copyOf(running).forEach(ConsumerSession::close);
    }
}
