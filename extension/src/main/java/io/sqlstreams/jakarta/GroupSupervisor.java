package io.sqlstreams.jakarta;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ExecutorService;

import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.HostTransactions;
import io.sqlstreams.engine.HostedClient;
import io.sqlstreams.engine.consume.SessionFailure;
import io.sqlstreams.jakarta.config.GroupSettings;

/**
 * One group's session on this instance: registers the declaration, starts the session with the observer as its
 * handler on the group's managed executor (a transactional observer in a JTA transaction per message), and
 * restarts it with a doubling backoff (1 s up to 1 min) when it fails, as soon as it has failed (it may still be
 * draining). What a failure means is {@link SessionFailure}'s
 * verdict: a group or stream that no longer exists leaves it FAILED, which liveness reports; a suspended worker
 * leaves it STOPPED, as intended; anything else (a lost instance, a loop that exited, a database failure) heals
 * with a fresh session. A session whose group an operator paused is PAUSED (live, claiming nothing). A running
 * session whose heartbeat is older than its InstanceTTL is STALLED (liveness DOWN) until its heartbeat resumes.
 */
final class GroupSupervisor<T> {
    private static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    private static final Duration MAX_BACKOFF = Duration.ofMinutes(1);

    private final ObservedGroup group;
    private final GroupSettings settings;
    private final Class<T> payloadType;
    private final MessageHandler<T> handler;
    private final HostTransactions transactions;
    private final ExecutorService handlers;
    private final Clock clock;
    private HostedClient.HostedConsumer<T> instance;
    private ConsumerSession session;
    private GroupState state;
    private Instant restartAt;
    private Duration backoff = FIRST_BACKOFF;
    private int restarts;

    /** @param transactions for a transactional observer, the JTA transactions each message runs in; else null */
    GroupSupervisor(ObservedGroup group, GroupSettings settings, Class<T> payloadType, MessageHandler<T> handler,
                    HostTransactions transactions, ExecutorService handlers, Clock clock) {
        this.group = group;
        this.settings = settings;
        this.payloadType = payloadType;
        this.handler = handler;
        this.transactions = transactions;
        this.handlers = handlers;
        this.clock = clock;
        this.state = new GroupState(GroupState.Status.NOT_STARTED, 0, null, clock.instant());
    }

    /** Writes the declaration (see {@link StreamRegistration}); a conflict or no database fails the deployment. */
    synchronized void register(HostedClient client) {
        StreamRegistration.ifAbsent(client.stream(group.address().stream(), payloadType));
        instance = client.registerConsumer(group.address().stream(), group.address().group(), payloadType,
                settings.declaration());
    }

    synchronized void start() {
        session = transactions == null ? instance.start(handler, settings.options(), handlers)
                : instance.startEnlisted(handler, transactions, settings.options(), handlers);
        state = new GroupState(GroupState.Status.RUNNING, restarts, null, clock.instant());
    }

    /** Called periodically: notices a session that died and restarts it when its backoff has passed. */
    synchronized void check() {
        Instant now = clock.instant();
        boolean live = state.status() == GroupState.Status.RUNNING || state.status() == GroupState.Status.STALLED
                || state.status() == GroupState.Status.PAUSED;
        Throwable failure = live ? session.failure().orElse(null) : null;
        if (live && failure == null && session.isRunning()) {
            watchHeartbeat(now);
        } else if (live) {
            String why = failure == null ? "the session stopped" : failure.toString();
            switch (failure == null ? SessionFailure.RESTARTABLE : SessionFailure.of(failure)) {
                case SUSPENDED -> state = new GroupState(GroupState.Status.STOPPED, restarts, why, now);
                case GONE -> state = new GroupState(GroupState.Status.FAILED, restarts, why, now);
                default -> scheduleRestart(now, why);
            }
        } else if (state.status() == GroupState.Status.RESTARTING && !now.isBefore(restartAt)) {
            restarts++;
            try {
                start();
                backoff = FIRST_BACKOFF;
            } catch (SqlStreamsException | IllegalStateException again) {
                scheduleRestart(now, again.toString());
            }
        }
    }

    private void watchHeartbeat(Instant now) {
        Duration ttl = settings.options().resolvedInstanceTtl();
        Duration silence = Duration.between(session.lastHeartbeat(), now);
        if (silence.compareTo(ttl) > 0) {
            state = new GroupState(GroupState.Status.STALLED, restarts, "no heartbeat for " + silence.toMillis()
                    + " ms (InstanceTTL " + ttl.toMillis() + " ms)", now);
        } else if (session.isPaused() != (state.status() == GroupState.Status.PAUSED)
                || state.status() == GroupState.Status.STALLED) {
            state = session.isPaused()
                    ? new GroupState(GroupState.Status.PAUSED, restarts, "paused by an operator", now)
                    : new GroupState(GroupState.Status.RUNNING, restarts, null, now);
        }
    }

    private void scheduleRestart(Instant now, String why) {
        restartAt = now.plus(backoff);
        state = new GroupState(GroupState.Status.RESTARTING, restarts, why + "; restarting in " + backoff.toMillis()
                + " ms", now);
        backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
    }

    /** Drains the session within its ShutdownTimeout. */
    void stop() {
        ConsumerSession running;
        synchronized (this) {
            running = session;
            state = new GroupState(GroupState.Status.STOPPED, restarts, null, clock.instant());
        }
        if (running != null) {
            running.close();
        }
    }

    synchronized GroupState state() {
        return state;
    }

    ObservedGroup group() {
        return group;
    }
}
