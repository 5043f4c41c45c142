package io.sqlstreams.bench;

import java.util.List;
import java.util.OptionalInt;

/**
 * The flags of the {@code handler} and {@code failure} scenarios; every one is optional and the scenario picks its
 * defaults (smoke or not).
 *
 * @param handlerMillis {@code --handler-ms}: the handler times of {@code handler}, in milliseconds (0 allowed)
 * @param concurrency   {@code --concurrency}: the message concurrencies of {@code handler}
 * @param poison        {@code --poison}: poison messages in each failing run of {@code failure}
 */
record HandlerOptions(List<Integer> handlerMillis, List<Integer> concurrency, OptionalInt poison) {

    static final List<String> FLAGS = List.of("--handler-ms", "--concurrency", "--poison");

    static HandlerOptions none() {
        return new HandlerOptions(List.of(), List.of(), OptionalInt.empty());
    }

    /** These options with {@code flag} (one of {@link #FLAGS}) set to {@code value}. */
    HandlerOptions with(String flag, String value) throws BenchOptions.UsageException {
        return switch (flag) {
            case "--handler-ms" -> new HandlerOptions(BenchOptions.ints(value, flag, BenchOptions::count), concurrency,
                    poison);
            case "--concurrency" -> new HandlerOptions(handlerMillis,
                    BenchOptions.ints(value, flag, BenchOptions::positiveInt), poison);
            case "--poison" -> new HandlerOptions(handlerMillis, concurrency,
                    OptionalInt.of(BenchOptions.count(value, flag)));
            default -> throw new IllegalArgumentException("not a handler flag: " + flag);
        };
    }
}
