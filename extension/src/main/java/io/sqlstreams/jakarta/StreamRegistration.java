package io.sqlstreams.jakarta;

import io.sqlstreams.StreamHandle;

/**
 * An application that consumes or produces a stream nobody has registered yet registers it with the defaults; a
 * stream already registered is left as it is (its producer's declaration, which a later registration with other
 * settings replaces, logging SQL0061).
 */
public final class StreamRegistration {
    private StreamRegistration() {
    }

    public static <T> StreamHandle<T> ifAbsent(StreamHandle<T> stream) {
        if (stream.get().isEmpty()) {
            stream.register();
        }
        return stream;
    }
}
