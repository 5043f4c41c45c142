package io.sqlstreams;

/**
 * Handles one delivered message. Returning normally is success. Throwing {@link Outcome#terminal} dead-letters
 * the delivery now, {@link Outcome#delay} runs it again later without counting a failure, and any other
 * exception retries it under the group's retry policy. Inside the call, {@link MessageMeta#current()}
 * describes the delivery.
 *
 * <p>Delivery is at least once: a handler may run again after a crash, a lease expiry or a timeout, so it
 * should be idempotent. It is interrupted when its timeout passes.
 *
 * @param <T> the payload type
 */
@FunctionalInterface
public interface MessageHandler<T> {
    void handle(T message) throws Exception;
}
