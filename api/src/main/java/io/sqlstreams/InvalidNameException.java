package io.sqlstreams;

/** SQL0109: a stream, group, schema or key name breaks its naming rule; the message states the rule. */
public class InvalidNameException extends SqlStreamsException {
    private static final long serialVersionUID = 1L;

    private final String kind;
    private final String name;

    public InvalidNameException(String kind, String name, String rule) {
        super(Code.SQL0109, "invalid " + kind + " name " + Quoting.quote(name) + ": " + rule);
        this.kind = kind;
        this.name = name;
    }

    /** What was named: {@code schema}, {@code stream}, {@code consumer group}, … */
    public String kind() {
        return kind;
    }

    /** The rejected name as given (may be null). */
    public String name() {
        return name;
    }
}
