package io.sqlstreams;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.enterprise.util.Nonbinding;
import jakarta.inject.Qualifier;

/**
 * Names the stream of an injected {@link Producer} or {@link StreamHandle}:
 * <pre>{@code
 * @Inject @StreamName("payments.requested") Producer<PaymentRequestedV1> payments;
 * }</pre>
 * Inside a JTA transaction the producer writes through the server's data source, so the message commits or
 * rolls back with the transaction; outside one it commits on its own.
 */
@Qualifier
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD, ElementType.TYPE})
public @interface StreamName {
    /** The stream's name, for example {@code payments.requested}. */
    @Nonbinding
    String value();
}
