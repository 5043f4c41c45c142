package io.sqlstreams.sample.web;

import java.util.List;

import io.sqlstreams.SqlStreamsException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * A failure of the stream library answers 503 when trying again may help (PostgreSQL unreachable, say) and
 * 500 otherwise, with the library's diagnostic code in the message.
 */
@Provider
public class SqlStreamsFailureMapper implements ExceptionMapper<SqlStreamsException> {

    @Override
    public Response toResponse(SqlStreamsException failure) {
        Response.Status status = failure.isTransient() ? Response.Status.SERVICE_UNAVAILABLE
                : Response.Status.INTERNAL_SERVER_ERROR;
        return ApiError.response(status, failure.getMessage(), List.of());
    }
}
