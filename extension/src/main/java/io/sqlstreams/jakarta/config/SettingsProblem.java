package io.sqlstreams.jakarta.config;

import io.sqlstreams.Code;

/**
 * One thing wrong with the configuration.
 *
 * @param code     the diagnostic code
 * @param property the configuration key to correct
 * @param message  what is wrong and what is accepted
 */
public record SettingsProblem(Code code, String property, String message) {

    /** The line a deployment problem or log shows: {@code SQL0108 <key>: <message>}. */
    public String describe() {
        return code.id() + " " + property + ": " + message;
    }
}
