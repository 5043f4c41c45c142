package io.sqlstreams.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How the chaos lab's consumers handle a message ({@code --handler}): {@link #PLAIN}, a {@code MessageHandler} whose
 * only writes are the ledger's, or {@link #TRANSACTIONAL}, a {@code TransactionalHandler} that also writes one effect
 * row per message through the connection the library lends it, inside the range's transaction.
 */
enum HandlerMode {
    PLAIN, TRANSACTIONAL;

    /** The flag's value naming it. */
    String flagValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The mode {@code value} names; anything else is refused with the values there are. */
    static HandlerMode parse(String value, String flag) throws BenchOptions.UsageException {
        for (HandlerMode mode : values()) {
            if (mode.flagValue().equals(value)) {
                return mode;
            }
        }
        throw new BenchOptions.UsageException(flag + " needs " + Arrays.stream(values()).map(HandlerMode::flagValue)
                .collect(Collectors.joining(" or ")) + ", not " + value);
    }
}
