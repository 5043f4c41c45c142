package io.sqlstreams.engine.codec;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Turns the idempotency key a caller passes into the UUID stored in {@code idempotency_key_<id>}
 * (digest §2.6).
 */
public final class IdempotencyKeys {

    /** The frozen namespace under which free-text keys become name-based UUIDs. */
    static final UUID NAMESPACE = UUID.fromString("b6f6c193-4e2b-45c1-9d3f-6a821e0c7a54");

    private static final Pattern CANONICAL =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int COUNTER_BITS = 12;
    private static final int COUNTER_LIMIT = 1 << COUNTER_BITS;

    private static long lastMillis = -1;
    private static int counter;

    private IdempotencyKeys() {
    }

    /**
     * The stored key for a caller's text: null when the text is null or empty (the write claims a
     * {@link #mintV7() UUIDv7} of its own for all such messages of its batch), the UUID itself when the text is
     * one in canonical 8-4-4-4-12 form (any case), and otherwise the UUIDv5 of the text's UTF-8 bytes under the
     * library's fixed namespace, so the same text always yields the same key.
     */
    public static UUID resolve(String callerKey) {
        if (callerKey == null || callerKey.isEmpty()) {
            return null;
        }
        if (CANONICAL.matcher(callerKey).matches()) {
            return UUID.fromString(callerKey);
        }
        return v5(NAMESPACE, callerKey);
    }

    /**
     * A new time-ordered UUIDv7 (RFC 9562 §5.7): Unix epoch milliseconds, then a 12-bit counter that
     * starts at a random value each millisecond, then 62 random bits. Keys minted by this process are
     * strictly increasing; when a millisecond's counter runs out, the timestamp moves ahead by one.
     */
    public static UUID mintV7() {
        long randomBits = RANDOM.nextLong();
        long millis;
        int sequence;
        synchronized (IdempotencyKeys.class) {
            long now = System.currentTimeMillis();
            if (now > lastMillis) {
                lastMillis = now;
                counter = RANDOM.nextInt(COUNTER_LIMIT / 2);
            } else if (++counter == COUNTER_LIMIT) {
                lastMillis++;
                counter = RANDOM.nextInt(COUNTER_LIMIT / 2);
            }
            millis = lastMillis;
            sequence = counter;
        }
        long high = (millis << 16) | 0x7000L | sequence;
        long low = (randomBits & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(high, low);
    }

    /** The name-based UUIDv5 (RFC 9562 §5.5) of {@code name}'s UTF-8 bytes under {@code namespace}. */
    static UUID v5(UUID namespace, String name) {
        MessageDigest sha1;
        try {
            sha1 = MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException("every Java platform provides SHA-1", impossible);
        }
        sha1.update(ByteBuffer.allocate(16)
                .putLong(namespace.getMostSignificantBits())
                .putLong(namespace.getLeastSignificantBits())
                .array());
        ByteBuffer hash = ByteBuffer.wrap(sha1.digest(name.getBytes(StandardCharsets.UTF_8)));
        long high = (hash.getLong() & ~0xF000L) | 0x5000L;
        long low = (hash.getLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(high, low);
    }
}
