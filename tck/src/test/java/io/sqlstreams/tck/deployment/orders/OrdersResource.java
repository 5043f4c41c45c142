package io.sqlstreams.tck.deployment.orders;

import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

/** {@code POST /orders?name=…&fail=…}: 204 when the transaction committed, 500 when it rolled back. */
@Path("orders")
public class OrdersResource {
    @Inject
    OrderDesk desk;

    @POST
    public Response place(@QueryParam("name") String name, @QueryParam("fail") boolean fail) {
        try {
            desk.place(name, fail);
            return Response.noContent().build();
        } catch (RuntimeException rolledBack) {
            return Response.serverError().entity(String.valueOf(rolledBack.getMessage())).build();
        }
    }
}
