package io.sqlstreams.sample.web;

import io.sqlstreams.sample.orders.InvalidOrderException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** An order that cannot be accepted answers 400 with every problem listed. */
@Provider
public class InvalidOrderMapper implements ExceptionMapper<InvalidOrderException> {

    @Override
    public Response toResponse(InvalidOrderException invalid) {
        return ApiError.response(Response.Status.BAD_REQUEST, "the order cannot be placed", invalid.problems());
    }
}
