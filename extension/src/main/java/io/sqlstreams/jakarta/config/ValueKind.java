package io.sqlstreams.jakarta.config;

/**
 * What a property's text must look like, and how it becomes a value.
 *
 * @param syntax how the reference table names the accepted texts
 * @param parser turns a text into a value or rejects it
 */
record ValueKind<T>(String syntax, Parser<T> parser) {

    T parse(String text) throws RejectedValueException {
        return parser.parse(text);
    }

    @FunctionalInterface
    interface Parser<T> {
        T parse(String text) throws RejectedValueException;
    }
}
