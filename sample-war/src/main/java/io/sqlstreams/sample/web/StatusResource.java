package io.sqlstreams.sample.web;

import io.sqlstreams.StreamHandle;
import io.sqlstreams.StreamName;
import io.sqlstreams.sample.PaymentRequestedV1;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code /api/status}: how far each group of the payments stream has got. */
@Path("status")
@RequestScoped
public class StatusResource {

    @Inject
    @StreamName(PaymentRequestedV1.STREAM)
    StreamHandle<PaymentRequestedV1> payments;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public StreamStatus status() {
        return new StreamStatus(payments.name(), payments.consumers().stream()
                .map(group -> GroupStatus.of(payments.consumer(group.name()).inspect()))
                .toList());
    }
}
