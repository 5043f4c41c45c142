package io.sqlstreams.jakarta.config;

/** A configured text that is not a value of its property's kind; the message is the rule it breaks. */
final class RejectedValueException extends Exception {
    private static final long serialVersionUID = 1L;

    RejectedValueException(String rule) {
        super(rule, null, false, false);
    }
}
