package io.sqlstreams.sample.web;

import java.io.InputStream;
import java.util.List;

import io.sqlstreams.sample.orders.Order;
import io.sqlstreams.sample.orders.OrderDesk;
import io.sqlstreams.sample.orders.OrderRequestReader;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

/** {@code /api/orders}: place an order, then follow its payment. */
@Path("orders")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class OrderResource {

    @Inject
    OrderDesk desk;

    @Inject
    OrderLookup lookup;

    /**
     * The body is read as text, and only up to its limit, so that malformed JSON gets the same clear 400 as a
     * missing field and a huge body a 413.
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response place(InputStream body, @HeaderParam("Content-Length") Long contentLength,
                          @Context UriInfo uri) {
        Order order = desk.place(OrderRequestReader.read(OrderBody.read(body, contentLength)));
        return Response.created(uri.getAbsolutePathBuilder().path(order.id()).build())
                .entity(OrderView.of(order, PaymentView.requested(), null, null)).build();
    }

    @GET
    @Path("{id}")
    public Response find(@PathParam("id") String id) {
        return lookup.find(id).map(order -> Response.ok(order).build())
                .orElseGet(() -> ApiError.response(Response.Status.NOT_FOUND, "no order " + id, List.of()));
    }
}
