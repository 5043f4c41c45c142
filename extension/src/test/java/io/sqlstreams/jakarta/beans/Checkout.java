package io.sqlstreams.jakarta.beans;

import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.StreamName;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Produces payment requests through the injected producer. */
@ApplicationScoped
public class Checkout {
    @Inject
    @StreamName("payments.requested")
    Producer<Payment> payments;

    @Inject
    @StreamName("payments.requested")
    StreamHandle<Payment> stream;

    public ProduceResult pay(String order) {
        return payments.produce(new Payment(order, "ok"));
    }

    public StreamHandle<Payment> stream() {
        return stream;
    }
}
