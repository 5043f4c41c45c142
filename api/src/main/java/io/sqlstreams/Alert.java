package io.sqlstreams;

import java.time.Instant;

/**
 * An alert as it is retained on the system stream {@code __system.alerts}: one message per activation, recovery
 * or four-hourly repeat of an unchanged active alert.
 *
 * @param name     the alert's name, such as {@code partition_count}
 * @param code     its diagnostic code, such as SQL0094
 * @param owner    what it is about
 * @param status   active, or resolved
 * @param severity {@code warn} for every built-in alert
 * @param message  one line for a human: what holds (or held), with the figures
 * @param detail   what the condition means
 * @param hint     what to do about it
 * @param data     a JSON object with the evidence: the figures and thresholds the evaluation used
 * @param at       when it was evaluated, by the database's clock
 */
public record Alert(String name, Code code, AlertOwner owner, AlertStatus status, String severity, String message,
                    String detail, String hint, String data, Instant at) {
}
