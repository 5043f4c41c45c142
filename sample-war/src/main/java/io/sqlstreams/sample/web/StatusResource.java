package io.sqlstreams.sample.web;

import java.util.stream.Stream;

import io.sqlstreams.StreamHandle;
import io.sqlstreams.StreamName;
import io.sqlstreams.sample.PaymentChargedV1;
import io.sqlstreams.sample.PaymentRequestedV1;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code /api/status}: how far each group of the sample's streams has got. */
@Path("status")
@RequestScoped
public class StatusResource {

    @Inject
    @StreamName(PaymentRequestedV1.STREAM)
    StreamHandle<PaymentRequestedV1> requested;

    @Inject
    @StreamName(PaymentChargedV1.STREAM)
    StreamHandle<PaymentChargedV1> charged;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public SampleStatus status() {
        return new SampleStatus(Stream.of(requested, charged).flatMap(StatusResource::groups).toList());
    }

    private static Stream<GroupStatus> groups(StreamHandle<?> stream) {
        return stream.consumers().stream().map(group -> GroupStatus.of(stream.consumer(group.name()).inspect()));
    }
}
