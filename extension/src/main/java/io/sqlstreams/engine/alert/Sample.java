package io.sqlstreams.engine.alert;

import java.time.Instant;

/**
 * One piece of recorded evidence for an alert: a retained measurement, judged against the alert's condition.
 *
 * @param recordedAt when it was stored (the message's creation time, by the database's clock)
 * @param messageId  its message id, which orders samples stored at the same instant
 * @param verdict    what it shows
 * @param finding    what it shows, in one line
 */
public record Sample(Instant recordedAt, long messageId, Verdict verdict, String finding) {

    public enum Verdict {
        HEALTHY,
        UNHEALTHY,
        /** The sample cannot be judged, such as a measurement missing what the condition needs. */
        UNUSABLE
    }
}
