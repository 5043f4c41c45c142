package io.sqlstreams;

/** The producing side of a stream: no I/O until {@link #register}. */
public interface ProducerHandle<T> {

    /**
     * Resolves the stream and returns a producer running under {@code config}. A producer has no durable
     * row; its settings live in this process.
     *
     * @throws SqlStreamsException           SQL0005 when the stream is not registered
     * @throws InvalidConfigurationException (SQL0108) for a bad configuration or a payload type without
     *                                       {@link SchemaVersion}
     */
    Producer<T> register(ProducerConfig config);

    default Producer<T> register() {
        return register(ProducerConfig.defaults());
    }
}
