package io.sqlstreams;

/**
 * What one consume session has done, as reported on its SQL0041 stop line.
 *
 * @param claimed     messages handed to this session by fresh claims and reclaims
 * @param success     deliveries that succeeded
 * @param superseded  compacted deliveries skipped because a newer head exists
 * @param ready       deliveries that failed or asked for a delay and wait for a retry
 * @param deferred    deliveries handed to the exception path because their key was busy
 * @param dead        deliveries dead-lettered
 * @param reclaimed   expired range leases this session took over
 * @param quarantined ranges split into single-message exception rows
 * @param abandoned   handler calls abandoned after their timeout and grace
 * @param leaseLost   range or row commits that found their lease taken over
 * @param instanceReclaims liveness rows found expired or removed and replaced by a fresh claim (SQL0114), as
 *                    after a database outage longer than InstanceTTL
 */
public record SessionCounters(long claimed, long success, long superseded, long ready, long deferred, long dead,
                              long reclaimed, long quarantined, long abandoned, long leaseLost,
                              long instanceReclaims) {
}
