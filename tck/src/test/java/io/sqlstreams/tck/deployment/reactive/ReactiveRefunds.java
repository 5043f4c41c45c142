package io.sqlstreams.tck.deployment.reactive;

import org.eclipse.microprofile.reactive.messaging.Incoming;

import io.sqlstreams.Outcome;
import io.sqlstreams.tck.deployment.Payment;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * A payload method, acknowledged the specification's way: after it returns, nacked with what it throws. A refund
 * whose order starts with {@code declined-} is refused for good.
 */
@ApplicationScoped
public class ReactiveRefunds {
    public static final String CHANNEL = "refunds";
    public static final String STREAM = "payments.refunds";
    public static final String GROUP = "reactive-refunds";

    @Incoming(CHANNEL)
    public void refund(Payment refund) {
        if (refund.order().startsWith("declined-")) {
            throw Outcome.terminal("refund declined for " + refund.order());
        }
    }
}
