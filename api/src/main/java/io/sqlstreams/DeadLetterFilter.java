package io.sqlstreams;

import java.time.Instant;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which dead letters of a consumer group a {@link DeadLettersHandle} verb reads or changes. Each part narrows the
 * selection; {@link #all()} narrows nothing. Checked when the verb runs (SQL0152): ids below 1, a range whose
 * lower end is above its upper end, an error text or key longer than {@link #MAX_TEXT} characters or holding a
 * NUL character, more than {@link #MAX_MESSAGE_IDS} selected ids. Every part reaches SQL as a bind parameter.
 *
 * @param fromId        only messages with an id at or above this; null for no lower end
 * @param toId          only messages with an id at or below this; null for no upper end
 * @param messageKey    only messages with exactly this message key; null for any key (or none)
 * @param errorContains only dead letters whose last error contains this text, ignoring case; null for any
 * @param deadSince     only dead letters that died at or after this time; null for any
 * @param messageIds    only these messages (a selection); empty for any
 */
public record DeadLetterFilter(Long fromId, Long toId, String messageKey, String errorContains, Instant deadSince,
                               Set<Long> messageIds) {
    /** The longest message key or error text a filter may hold. */
    public static final int MAX_TEXT = 1_000;
    /** The most message ids one selection may name. */
    public static final int MAX_MESSAGE_IDS = 10_000;

    public DeadLetterFilter {
        // nulls inside the selection are kept so that the check reports them (SQL0152) rather than failing here
        messageIds = messageIds == null ? Set.of() : Collections.unmodifiableSet(new TreeSet<>(
                messageIds.stream().map(id -> id == null ? 0L : id).toList()));
    }

    /** Every dead letter of the group. */
    public static DeadLetterFilter all() {
        return new DeadLetterFilter(null, null, null, null, null, Set.of());
    }

    /** This filter, keeping only ids from {@code from} to {@code to}, both included; either may be null. */
    public DeadLetterFilter idRange(Long from, Long to) {
        return new DeadLetterFilter(from, to, messageKey, errorContains, deadSince, messageIds);
    }

    /** This filter, keeping only messages with message key {@code key}. */
    public DeadLetterFilter key(String key) {
        return new DeadLetterFilter(fromId, toId, key, errorContains, deadSince, messageIds);
    }

    /** This filter, keeping only dead letters whose last error contains {@code text}, ignoring case. */
    public DeadLetterFilter errorContaining(String text) {
        return new DeadLetterFilter(fromId, toId, messageKey, text, deadSince, messageIds);
    }

    /** This filter, keeping only dead letters that died at or after {@code since}. */
    public DeadLetterFilter deadSince(Instant since) {
        return new DeadLetterFilter(fromId, toId, messageKey, errorContains, since, messageIds);
    }

    /** This filter, keeping only the messages {@code ids}. */
    public DeadLetterFilter ids(Set<Long> ids) {
        return new DeadLetterFilter(fromId, toId, messageKey, errorContains, deadSince, ids);
    }
}
