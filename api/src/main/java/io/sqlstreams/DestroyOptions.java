package io.sqlstreams;

/**
 * Options of a destroy verb.
 *
 * @param force skip the safety guards (messages still present, live instances, pending deliveries)
 */
public record DestroyOptions(boolean force) {

    public static DestroyOptions guarded() {
        return new DestroyOptions(false);
    }

    public static DestroyOptions forced() {
        return new DestroyOptions(true);
    }
}
