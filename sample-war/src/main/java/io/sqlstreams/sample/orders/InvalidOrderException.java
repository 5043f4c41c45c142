package io.sqlstreams.sample.orders;

import java.util.List;

/** A request to place an order that cannot be accepted as it is: every problem at once. */
public class InvalidOrderException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    public InvalidOrderException(List<String> problems) {
        super("invalid order: " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
