package io.sqlstreams;

/**
 * How one consumer group of a schedule's stream fared with the schedule's messages, as the stream's delivery log
 * records them (successes only when the stream's delivery log mode is {@code all}).
 *
 * @param group      the consumer group's name
 * @param ran        messages whose handler ran at least once, successfully or not
 * @param succeeded  messages that succeeded
 * @param failed     failed attempts
 * @param superseded messages a newer message of the schedule replaced before they ran
 */
public record ScheduleGroupStatus(String group, long ran, long succeeded, long failed, long superseded) {
}
