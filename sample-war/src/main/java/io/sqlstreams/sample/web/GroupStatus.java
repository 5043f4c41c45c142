package io.sqlstreams.sample.web;

import java.time.Duration;
import java.util.Map;

import io.sqlstreams.ConsumerInspection;

/**
 * One consumer group as the status page shows it.
 *
 * @param stream     the stream it reads
 * @param group      its name
 * @param head       the highest visible message id of the stream
 * @param committed  the group's committed cursor: every message up to it is done
 * @param lag        ids beyond the committed cursor up to the head
 * @param openLeases ranges claimed and still being worked on
 * @param exceptions exception rows by status (ready, inflight, deferred, dead, superseded)
 * @param dead       dead-lettered deliveries still retained
 * @param timeout    the group's effective message timeout
 * @param maxRetries the group's effective retry budget
 * @param baseDelay  the group's effective first backoff delay
 */
public record GroupStatus(String stream, String group, long head, long committed, long lag, int openLeases,
                          Map<String, Long> exceptions, long dead, Duration timeout, int maxRetries,
                          Duration baseDelay) {

    static GroupStatus of(ConsumerInspection inspection) {
        return new GroupStatus(inspection.consumer().stream(), inspection.consumer().name(), inspection.head(), inspection.committed(),
                inspection.lag(), inspection.openLeases(), inspection.exceptions(), inspection.dead(),
                inspection.effectiveMessage().timeout(), inspection.effectiveMessage().retry().maxRetries(),
                inspection.effectiveMessage().retry().baseDelay());
    }
}
