package io.sqlstreams;

/**
 * One message of {@link Producer#produceBatch}.
 *
 * @param message the payload; produceBatch refuses a null one (SQL0097)
 * @param options its produce options
 */
public record ProduceItem<T>(T message, ProduceOptions options) {

    public ProduceItem {
        options = options == null ? ProduceOptions.none() : options;
    }

    public static <T> ProduceItem<T> of(T message) {
        return new ProduceItem<>(message, null);
    }

    public static <T> ProduceItem<T> of(T message, ProduceOptions options) {
        return new ProduceItem<>(message, options);
    }
}
