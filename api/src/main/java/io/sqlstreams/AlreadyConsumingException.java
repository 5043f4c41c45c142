package io.sqlstreams;

/** SQL0001: this consumer instance already runs a session; one instance runs one session at a time. */
public class AlreadyConsumingException extends SqlStreamsException {
    private static final long serialVersionUID = 1L;

    public AlreadyConsumingException(String stream, String group) {
        super(Code.SQL0001, "consumer group \"" + group + "\" on stream \"" + stream
                + "\" is already consuming in this instance");
    }
}
