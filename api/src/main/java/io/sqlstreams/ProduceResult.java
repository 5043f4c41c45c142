package io.sqlstreams;

/**
 * What a produce wrote.
 *
 * @param id        the message's id in the stream; 0 for a duplicate
 * @param duplicate true when the idempotency key was already claimed, so no new message was written
 */
public record ProduceResult(long id, boolean duplicate) {
}
