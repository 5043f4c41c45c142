package io.sqlstreams;

import java.util.Optional;

/** A consumer group's routing bindings. No I/O until a verb is called. */
public interface BindingHandle {

    /**
     * The group's effective binding set, or empty when the group reads the whole stream (it never declared
     * bindings, or declared none).
     *
     * @throws SqlStreamsException SQL0005 / SQL0014 when the stream or the group is not registered
     */
    Optional<Binding> get();
}
