package io.sqlstreams;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.inject.Qualifier;

/**
 * Marks an observer method's event parameter as the handler of one consumer group:
 * <pre>{@code
 * void charge(@Observes @ConsumerGroup(stream = "payments.requested", group = "charge-cards")
 *             PaymentRequestedV1 payment, MessageMeta meta) { ... }
 * }</pre>
 * The group's session notifies exactly this method (never a broadcast through the event bus), and its
 * outcome is the delivery's: returning succeeds, {@link Outcome} exceptions act as documented there, and
 * any other exception retries.
 */
@Qualifier
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.PARAMETER, ElementType.FIELD, ElementType.METHOD, ElementType.TYPE})
public @interface ConsumerGroup {
    /** The stream's name, for example {@code payments.requested}. */
    String stream();

    /** The group's name, unique per stream, for example {@code charge-cards}. */
    String group();
}
