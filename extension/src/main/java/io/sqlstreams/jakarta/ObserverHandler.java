package io.sqlstreams.jakarta;

import jakarta.enterprise.context.control.RequestContextController;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.ObserverMethod;

import io.sqlstreams.MessageHandler;
import io.sqlstreams.Outcome;
import io.sqlstreams.engine.CauseChain;

/**
 * Runs a group's observer method as the session's handler, inside an active request context. The observer's
 * outcome is the delivery's: returning succeeds; an {@link Outcome} thrown anywhere in the cause chain (the
 * container may wrap it) acts as documented; any other exception retries.
 */
final class ObserverHandler<T> implements MessageHandler<T> {
    private final ObserverMethod<T> observer;
    private final Instance<RequestContextController> requestContexts;

    ObserverHandler(ObserverMethod<T> observer, Instance<RequestContextController> requestContexts) {
        this.observer = observer;
        this.requestContexts = requestContexts;
    }

    @Override
    public void handle(T message) throws Exception {
        RequestContextController requestContext = requestContexts.get();
        boolean activated = requestContext.activate();
        try {
            observer.notify(message);
        } catch (RuntimeException failure) {
            throw outcomeWithin(failure);
        } finally {
            if (activated) {
                requestContext.deactivate();
            }
            requestContexts.destroy(requestContext);
        }
    }

    private static RuntimeException outcomeWithin(RuntimeException failure) {
        for (Throwable cause : CauseChain.of(failure)) {
            if (cause instanceof Outcome outcome) {
                return outcome;
            }
        }
        return failure;
    }
}
